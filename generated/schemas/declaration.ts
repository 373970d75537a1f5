/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * What an implementation declares about its choices on points the source leaves open ("not shown"). The kit checks a declared value precisely; where nothing is declared, a check that needs the value reports it as not checked and never fails for it (rule kit-judges-by-source). Passed with `--declaration FILE` (YAML or JSON).
 */
export interface ImplementationDeclaration {
  declarationVersion: 1;
  implementation?: {
    name?: string;
    version?: string;
  };
  /**
   * The error code (error.code) the implementation answers for each kind of refusal the kit tells apart. Keys are the kit's names for the kinds; a kind left out is not checked.
   */
  errorCodes?: {
    scope_denied?: string;
    access_denied?: string;
    area_disabled?: string;
    owner_only?: string;
    advanced_grant_missing?: string;
    website_required?: string;
    not_found?: string;
    validation_failed?: string;
    stale_revision?: string;
    review_required?: string;
    not_available?: string;
    plan_not_approved?: string;
    plan_declined?: string;
    plan_expired?: string;
    plan_used?: string;
    plan_wrong_caller?: string;
    plan_subject_changed?: string;
    plan_anchor_mismatch?: string;
    insufficient_credits?: string;
    ai_consent_missing?: string;
    over_cap?: string;
    site_limit_reached?: string;
    rate_limited?: string;
    throttled?: string;
    operation_failed?: string;
    not_implemented?: string;
    internal_error?: string;
    /**
     * A call of a tool the catalogue does not have, refused by an envelope (unknownTool: envelope). Its own kind: the source shows no code for it, and it need not be the code of a missing id (not_found).
     */
    unknown_tool?: string;
  };
  /**
   * true: error objects follow spec/schemas/error.schema.json beyond the code (a message a person can act on, details such as issues, requiredScopes, retryAfterSeconds, currentRev).
   */
  errorObject?: boolean;
  /**
   * true: every `data` validates against the outputSchema of spec/tools/<tool>.json (field names and shapes beyond those the source names).
   */
  outputSchemas?: boolean;
  /**
   * Where the implementation's data carries a field the kit needs, when outputSchemas is not declared: keys are tool names (a trailing * matches a name prefix, e.g. "prepare_*"), values map a field of our output shape (spec/tools/<tool>.json) to a JSON pointer into your data. A key is a top-level field ("planId") or a path into list items with * for the index ("sites/* /websiteId"); a value is a pointer ("/plan/id", "/entries/* /site/ref", whose * takes the index) or "" for the data itself. E.g. { "prepare_*": { "planId": "/plan/id" } } lets the plan scenarios find the plan id. A field neither named by the source, nor declared here, nor covered by outputSchemas is looked for by the value it must hold (the ids and texts the kit arranged), else not read (rule kit-judges-by-source).
   */
  outputFields?: {
    [k: string]:
      | {
          [k: string]: string | undefined;
        }
      | undefined;
  };
  /**
   * true: each tool result carries the envelope both as structuredContent and as the JSON of its text item, and isError is true exactly when ok is false.
   */
  mcpEncoding?: boolean;
  /**
   * How a call of a tool that does not exist is answered: an envelope refusal, or a JSON-RPC error (-32602).
   */
  unknownTool?: 'envelope' | 'json-rpc-error';
  /**
   * What the implementation has not built yet. A scenario that needs one of these is reported as not checked (not implemented), never failed, and tool-catalogue-exact does not count a listed tool as missing. Without this, a catalogue tool absent from tools/list is treated the same way, and only tool-catalogue-exact fails for it.
   */
  notImplemented?: {
    /**
     * Tools of the source's §4.3 not built yet.
     */
    tools?: string[];
    /**
     * Parts of the interface not built yet: oauth (§5.1 authorization server and the 401's protected-resource metadata), pairing (§5.3-5.5 device-code pairing: /v1/cli/pair/*, /dashboard/connect, delivery tokens), auth-md (§4.1 /auth.md), resources (§4.4), prompts (§4.5).
     */
    parts?: ('oauth' | 'pairing' | 'auth-md' | 'resources' | 'prompts')[];
  };
  /**
   * true: reading each §4.4 resource answers the JSON envelope its site:read tool answers (spec/resources.json names the tool).
   */
  resourcesMirrorTools?: boolean;
  /**
   * Decision rules of spec/rules (those marked decision: true) whose values in spec/ the implementation uses too, e.g. limit-values, domain-status-values, section-types. A scenario value marked {{decision:<rule>:<value>}} is checked only when its rule is adopted.
   */
  adopts?: string[];
  /**
   * Where a published site is served (the source says only "the public address"): a URL template with {base} (the target's base URL) and {websiteId}, e.g. "{base}/sites/{websiteId}/". Scenarios that look at the live site run only when it is declared.
   */
  publicSiteUrl?: string;
  /**
   * Section types and text-field names are not shown in the source (our choice: rule section-types, spec/schemas/section-content.schema.json). The content scenarios name the kit's types and fields ({{type:hero}}, {{field:heading}}); map each to yours here. Without this block and without adopting section-types, the steps that need a type or field name are reported as not checked. Field names are used both as update_section_text's `field` and as keys of a section's content.
   */
  sections?: {
    types?: {
      [k: string]: string | undefined;
    };
    fields?: {
      [k: string]: string | undefined;
    };
  };
  /**
   * The names of the device-code pairing bodies (POST /v1/cli/pair/start and /v1/cli/pair/poll), which the source does not show beyond the poll's websiteId (§4.1: "Pairing request and response field names beyond those named above ... not shown"; §3: state names not shown). Ours are rule pairing-field-names (spec/schemas/pairing.schema.json); a target that adopts it declares nothing here. Otherwise map each of our names to yours: a name left out is ours. With this block (or the adopted rule) the pairing scenarios check the source's rules (a user code, no token before approval, the token once, a grant only narrower, an ordinary connection, websiteId) in your names; without either they are not checked. websiteId cannot be mapped: §4.1 names it.
   */
  pairing?: {
    /**
     * Our field name → yours. Start request: scopes, readOnly (the CLI's connect command, §5.5), admin (the admin variant, §5.4). Start answer: userCode, deviceCode, verificationUri (the approval page for this code), expiresIn, interval. Poll request: deviceCode. Poll answer: status, token (returned once), scopes (granted).
     */
    fields?: {
      [k: string]: string | undefined;
    };
    /**
     * Our poll status value → yours: pending (not yet approved), approved (the answer carrying the token), redeemed (a poll after the token was returned), denied, expired.
     */
    statuses?: {
      [k: string]: string | undefined;
    };
    /**
     * How scopes travel in the start request and the poll answer: a JSON array of scope names (ours), or one string of names separated by spaces (as OAuth's scope parameter).
     */
    scopesAs?: 'array' | 'string';
    /**
     * Where a read-only pairing's delivery token reads the published site (§2.7: it reads published content only and cannot write; the address is not shown), as a path on the target's base URL. Ours is /v1/delivery/site. Without it, a target that maps its pairing names has the delivery scenarios reported as not checked.
     */
    deliveryPath?: string;
  };
}
