/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * One tool of the catalogue (spec/tools/<name>.json).
 */
export interface ToolDefinition {
  name: string;
  title: string;
  scopes: (
    | 'site:read'
    | 'content:write'
    | 'publish'
    | 'ai:generate'
    | 'crm:read'
    | 'crm:write'
    | 'settings:write'
    | 'domain:write'
    | 'domain:read'
    | 'access:write'
    | 'communications:write'
    | 'commerce:write'
    | 'workspace:write'
  )[];
  gates: ('owner-only' | 'advanced-editor-grant' | 'area:invoicing' | 'area:commerce' | 'area:crm' | 'area:bookings')[];
  planKind:
    | null
    | (
        | 'publish'
        | 'unpublish'
        | 'publish_product'
        | 'grant_access'
        | 'send_document'
        | 'create_company'
        | 'search_visibility'
      );
  /**
   * For a prepare_* tool (planKind set), what its plan is besides what the tool's scopes and gates say (the plan's scope, owner-only and area, re-checked at redemption, rule plan-redeem-reauthorizes-anchor): what it pins of what was reviewed (§2.6), what confirm_pending_action then does, and for a plan whose website is only where the owner approves, what that anchor is.
   */
  plan?: {
    pins: 'siteRevision' | 'productRevision' | 'documentFingerprint' | 'none';
    effect: string;
    anchor?: string;
  };
  /**
   * Which website the call acts on, so the call path knows which to resolve and authorize before the handler: website (its websiteId, resolved under the connection's reach, rule authz-cross-tenant-not-found); plan (its plan's own website; a websiteId only detects re-pointing, §2.6); anchor (its websiteId only names where the owner approves, rule plan-company-anchor-context-only); none (no website).
   */
  target: 'website' | 'plan' | 'anchor' | 'none';
  annotations: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  since?: string;
  /**
   * @minItems 1
   */
  rules: [string, ...string[]];
  description: string;
  inputSchema: {
    type: 'object';
  };
  outputSchema: {};
}
