// Correct variants of the reference (after modelcontextprotocol/conformance's example servers, mirrored): a
// loopback proxy in front of a reference server that changes only what the source leaves open (§7.4 "error
// codes and exact error message texts: not shown", §4.2 no output shapes beyond the named fields). Each variant
// is a correct implementation, so the suite must pass against it with zero failures: without a declaration
// (source checks only) and with the variant's own declaration (rule kit-judges-by-source).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadJson, loadTools } from '../../spec/index.js';
import { postFromAddress, randomLoopback } from '../lib/local-address.js';

export interface VariantOptions {
  /** Every error code becomes E_<CODE>, in tool results and in the activity the fixtures protocol reports. */
  renameCodes?: boolean;
  /**
   * Every refusal of a tool call carries this one code, whatever its kind (§7.4 shows no codes): the kit cannot tell
   * two refusals apart by code, and must say so rather than fail (the denial order, rule authz-denial-order).
   */
  oneCodeForEveryRefusal?: string;
  /** One extra property in every data and error object, and in every listed tool. */
  extraFields?: boolean;
  /** Error objects carry only code and message (no details, no retryable). */
  dropErrorDetails?: boolean;
  /** A call of a tool that does not exist gets the JSON-RPC error -32602 instead of an envelope. */
  unknownToolAsJsonRpcError?: boolean;
  /**
   * Every `status` value in data is upper-cased (state and status names: not shown, §3, §2.5), and crm_update takes
   * the upper-case statuses its listed schema names, refusing the reference's.
   */
  renameStatuses?: boolean;
  /**
   * Lists and ids in answers carry the variant's own names (§4.3 shows no result fields): list_sites answers
   * `entries` of `{ site: { ref } }`, list_pages `entries` of `{ ref }`, list_leads and list_contacts `records` of
   * `{ ref }`, list_sendable_documents `sendable` of `{ ref }`, get_site_overview and prepare_* name their website
   * in `site.ref` (OWN_LIST_NAMES). The kit finds them by the ids it arranged.
   */
  ownListNames?: boolean;
  /** A prepare_* answer carries its plan id as `plan.id` instead of `planId` (output shapes: not shown, §4.2). */
  movePlanId?: boolean;
  /**
   * Site revisions start at 0 and move by 3 per change (§2.6 "pinned revision" shows no numbering): every
   * `siteRevision` and `publishedRevision`, and each draft change's `revision`, in tool answers and in the fixtures
   * protocol's site state and app edits, is 3 × (the reference's − 1).
   */
  revisionsFromZero?: boolean;
  /**
   * A section's `rev` (§2.3, §4.3: get_section_json returns it, replace_section_content takes it as clientRev) starts
   * at this number, not the reference's: the advanced editor's answers show rev + N, and a clientRev is read back as
   * clientRev − N; one under N is a rev the variant never issued, so it is stale (the staleness check comes first, as
   * §7.4 orders no two refusals). Rules replace-section-stale-rev-rejected and replace-section-schema-validated.
   */
  sectionRevsFrom?: number;
  /**
   * A section add_section creates is keyed `<page>/added-<section>` instead of the reference's `<page>/<type>`
   * (§2.3 gives only the form `<page>/<section>`), in every answer after, and understood so in every request.
   */
  otherSectionKeys?: boolean;
  /** list_draft_changes lists one entry per kind of thing changed, with a count, instead of one per call (§4.3 shows no entries). */
  groupedDraftChanges?: boolean;
  /** Preset labels other than "Custom" (§2.1 names no other) are the variant's own, in the Developers page's view. */
  otherPresetLabels?: boolean;
  /** export_site answers the snapshot itself as data, not inside `snapshot` (§4.2 shows no output shape). */
  snapshotAtRoot?: boolean;
  /** A call of a tool that does not exist is refused with an envelope carrying this code of the variant's own. */
  unknownToolCode?: string;
  /**
   * The pairing bodies (POST /v1/cli/pair/start and /poll) carry these names instead of the reference's, both ways
   * (§4.1 "Pairing request and response field names beyond those named above ... not shown", §3 no state names):
   * e.g. RENAMED_PAIRING. websiteId, the one name §4.1 shows, stays.
   */
  renamePairing?: PairingRenames;
  /** BROKEN (portable-site-v1-name): export_site answers `{ format: "SomethingElse", pages: [] }`. */
  wrongSnapshot?: boolean;
  /** BROKEN (oauth-dynamic-client-registration): the authorization server's metadata names no registration_endpoint. */
  dropRegistrationEndpoint?: boolean;
  /**
   * BROKEN (oauth-client-id-metadata-documents): the authorization server's metadata no longer says it takes client
   * metadata documents (client_id_metadata_document_supported), so a client registers instead.
   */
  dropMetadataDocumentSupport?: boolean;
  /** BROKEN (oauth-challenge-scope-every-scope): the 401 challenge of the MCP endpoint asks for site:read alone. */
  narrowChallengeScope?: boolean;
  /**
   * BROKEN (oauth-authorization-server-metadata-path-inserted): the RFC 8414 path-inserted metadata address
   * (/.well-known/oauth-authorization-server/<issuer path>) answers 404; the provider's own addresses still answer.
   */
  hidePathInsertedMetadata?: boolean;
  /** BROKEN, not a correct variant: tools/list leaves this tool out although calls to it still work. */
  dropListedTool?: string;
  /** BROKEN, not a correct variant: the data of this tool's results lacks this field. */
  dropResultField?: { tool: string; field: string };
  /** BROKEN: pages outside the MCP endpoint and the fixtures protocol lose CSP, X-Frame-Options, nosniff and Referrer-Policy. */
  dropSecurityHeaders?: boolean;
  /** BROKEN: tool arguments past these bounds are cut down to fit before the target sees them: accepted, not refused. */
  cutArgumentsTo?: { maxDepth: number; maxNodes: number };
  /**
   * BROKEN: connect_domain for a hostname another connection connected is answered without looking that hostname
   * up (the target is asked about a made-up nonexistent name, and the answer names the hostname again).
   */
  answerTakenHostnamesUnprobed?: boolean;
  /** BROKEN: the approval page /dashboard/connect shows the requested scopes without checkboxes to untick them. */
  dropScopeCheckboxes?: boolean;
  /** BROKEN: the activity the Developers settings show (the fixtures protocol's activity read) is empty. */
  hideActivity?: boolean;
  /**
   * BROKEN (oauth-no-caller-profile-id): a request naming a connection in X-Connection-Id acts as that connection
   * (the proxy swaps in the token the fixtures protocol created it with).
   */
  honourConnectionIdHeader?: boolean;
  /**
   * BROKEN (oauth-no-newest-connection-guess): an OAuth bearer token acts as the newest connection the fixtures
   * protocol made for the token's subject (the reference's subject is the user id).
   */
  oauthUsesNewestConnection?: boolean;
  /** BROKEN (pairing-token-returned-once): a poll after the token was handed out answers it again (status approved). */
  pollTokenAgain?: boolean;
  /**
   * BROKEN (pairing-grant-only-narrower): a pairing start asks the target for every scope, whatever the tool
   * requested, so an approval grants every scope left ticked, requested or not.
   */
  pairingAsksEverything?: boolean;
  /** BROKEN: POST /v1/cli/pair/start reaches the target from a fresh loopback address each time: no address is ever throttled. */
  pairStartFromFreshAddresses?: boolean;
  /** BROKEN: a posted form with a password (the app's sign-in) reaches the target from a fresh loopback address each time. */
  signInFromFreshAddresses?: boolean;
  /** BROKEN: a sign-in for an email a world was made with is answered 4 s late, so the time tells which emails have accounts (as when only known emails pay the password hash; far past the step's factor of 8 even on a busy machine). */
  slowKnownSignIns?: boolean;
  /** BROKEN: cookies lose their HttpOnly and SameSite attributes. */
  weakenCookies?: boolean;
  /** BROKEN: migrate_site_from_url ignores mergeIntoWebsiteId and makes a new site each time. */
  migrateNeverMerges?: boolean;
  /** BROKEN (tools-list-single-type-schemas): listed input schemas write a nullable value as a list of types (anyOf [T, null] becomes type [T, "null"]). */
  typeUnionsInToolsList?: boolean;
  /** BROKEN (tools-list-no-output-schema): every listed tool declares an outputSchema. */
  outputSchemaInToolsList?: boolean;
  /**
   * BROKEN (mcp-eras-both): the target speaks the 2025-11-25 era only: a message of the 2026 era (a protocol revision
   * in params._meta, or a 2026+ MCP-Protocol-Version header) is answered -32601 Method not found, as a server of that era alone does.
   */
  only2025Era?: boolean;
  /** BROKEN (mcp-2026-discover): server/discover answers without supportedVersions and instructions. */
  dropDiscoverFields?: boolean;
  /** BROKEN (mcp-2026-result-type): results of the 2026 era carry no resultType. */
  dropResultType?: boolean;
  /** BROKEN (mcp-2026-server-info): results of the 2026 era name no server in _meta. */
  dropServerInfo?: boolean;
  /** BROKEN (mcp-2026-cache-hints): results of the 2026 era carry no ttlMs and no cacheScope. */
  dropCacheHints?: boolean;
  /** BROKEN (mcp-2026-unsupported-version): a request naming another 2026+ revision is served as 2026-07-28. */
  acceptAnyModernRevision?: boolean;
  /** BROKEN (mcp-2026-header-mismatch): the Mcp-Method and Mcp-Name headers are rewritten from the body, so none is ever missing or wrong. */
  headersFromBody?: boolean;
  /** BROKEN (mcp-2026-resource-not-found): resources/read of an unknown uri is refused with -32002, the older SDKs' code. */
  resourceNotFoundAsOldCode?: boolean;
}

/** The variant's names in the pairing bodies: our field → its, our poll status → its, and scopes as one string. */
export interface PairingRenames {
  fields: Record<string, string>;
  statuses: Record<string, string>;
  scopesAsString?: boolean;
  /** Where the variant serves a delivery token's read of the live site; the reference's address then answers 404. */
  deliveryPath?: string;
}

/** The reference's delivery address (rule pairing-field-names). */
const REFERENCE_DELIVERY_PATH = '/v1/delivery/site';

/**
 * The renamed variant's pairing names, after RFC 8628's (declared so in renamed.declaration.yaml, under pairing):
 * every field the kit reads or writes but websiteId renamed, every status renamed, scopes space-separated.
 */
export const RENAMED_PAIRING: PairingRenames = {
  fields: {
    scopes: 'scope', readOnly: 'read_only', admin: 'admin_variant', userCode: 'user_code', deviceCode: 'device_code',
    verificationUri: 'verification_uri_complete', expiresIn: 'expires_in', interval: 'poll_interval', status: 'state', token: 'access_token',
  },
  statuses: { pending: 'authorization_pending', approved: 'granted', redeemed: 'used', denied: 'access_denied', expired: 'expired_token' },
  scopesAsString: true,
  deliveryPath: '/cli/published-site',
};

/**
 * A pairing body renamed: `toVariant` turns the reference's answer into the variant's, otherwise the variant's
 * request into the reference's. Keys without a rename pass as they are.
 */
function renamePairingBody(body: Record<string, unknown>, renames: PairingRenames, toVariant: boolean): Record<string, unknown> {
  const flip = (table: Record<string, string>) => (toVariant ? table : Object.fromEntries(Object.entries(table).map(([ours, theirs]) => [theirs, ours])));
  const fields = flip(renames.fields);
  const statuses = flip(renames.statuses);
  const scopesKey = toVariant ? 'scopes' : renames.fields.scopes ?? 'scopes';
  return Object.fromEntries(Object.entries(body).map(([key, value]) => {
    let out = value;
    if (key === scopesKey && renames.scopesAsString) out = toVariant && Array.isArray(value) ? value.join(' ') : !toVariant && typeof value === 'string' ? value.split(' ').filter(Boolean) : value;
    if (key === (toVariant ? 'status' : renames.fields.status ?? 'status') && typeof value === 'string') out = statuses[value] ?? value;
    return [fields[key] ?? key, out];
  }));
}

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/** A message of the 2026 era: its params._meta names a protocol revision. */
const isModernMessage = (message: unknown): message is { method?: string; id?: unknown; params: Record<string, unknown> & { _meta: Record<string, unknown> } } =>
  isObject(message) && isObject(message.params) && isObject(message.params._meta) && PROTOCOL_VERSION_META in message.params._meta;

/** The broken servers' changes to an answer of the 2026 era (mcp-2026-* rules), or the message as it was. */
function breakModernAnswer(message: unknown, method: string | undefined, options: VariantOptions): unknown {
  if (!isObject(message)) return message;
  if (options.resourceNotFoundAsOldCode && method === 'resources/read' && isObject(message.error) && message.error.code === -32602) return { ...message, error: { ...message.error, code: -32002 } };
  if (!isObject(message.result)) return message;
  const result: Record<string, unknown> = { ...message.result };
  if (options.dropDiscoverFields && method === 'server/discover') {
    delete result.supportedVersions;
    delete result.instructions;
  }
  if (options.dropResultType) delete result.resultType;
  if (options.dropServerInfo && isObject(result._meta)) {
    const { [SERVER_INFO_META]: _dropped, ...meta } = result._meta;
    result._meta = meta;
  }
  if (options.dropCacheHints) {
    delete result.ttlMs;
    delete result.cacheScope;
  }
  return { ...message, result };
}

const breaksModernEra = (o: VariantOptions) =>
  Boolean(o.only2025Era || o.dropDiscoverFields || o.dropResultType || o.dropServerInfo || o.dropCacheHints || o.acceptAnyModernRevision || o.headersFromBody || o.resourceNotFoundAsOldCode);

const SECURITY_HEADERS = new Set(['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy']);

/** `value` with objects at `maxDepth` replaced by a string and no more than `maxNodes` values in all (the args object is level 1). */
function cutToBounds(value: unknown, bounds: { maxDepth: number; maxNodes: number }, depth = 1, budget = { nodes: bounds.maxNodes - 10 }): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= bounds.maxDepth) return 'cut';
  const keep = () => budget.nodes-- > 0;
  if (Array.isArray(value)) return value.filter(() => keep()).map((v) => cutToBounds(v, bounds, depth + 1, budget));
  return Object.fromEntries(Object.entries(value).filter(() => keep()).map(([k, v]) => [k, cutToBounds(v, bounds, depth + 1, budget)]));
}

/** `value` with every string `status` property, at any depth, upper-cased. */
function upperStatuses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upperStatuses);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'status' && typeof v === 'string' ? v.toUpperCase() : upperStatuses(v)]));
}

export const renamedCode = (code: string) => `E_${code.toUpperCase()}`;

/** A tools/call result the variant answers itself: a refusal envelope; a 2026-07-28 result names its type (resultType). */
function refusalResult(id: unknown, protocolVersion: string | string[] | undefined, code: string, message: string): string {
  const envelope = { ok: false, error: { code, message } };
  return JSON.stringify({ jsonrpc: '2.0', id: id ?? null, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope, isError: true, ...(protocolVersion === '2026-07-28' ? { resultType: 'complete' } : {}) } });
}

/**
 * renameStatuses in a listed input schema: the lead statuses (the changes whose properties hold followUpAt, leads'
 * alone, §2.5) in the variant's upper case. A booking's no_show, cancelled and completed are the source's own words.
 */
function upperStatusEnums(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upperStatusEnums);
  if (!isObject(value)) return value;
  const props = value.properties;
  if (isObject(props) && props.followUpAt && isObject(props.status) && Array.isArray(props.status.enum)) {
    return { ...value, properties: { ...props, status: { ...props.status, enum: props.status.enum.map((e) => (typeof e === 'string' ? e.toUpperCase() : e)) } } };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upperStatusEnums(v)]));
}

/** revisionsFromZero: the variant's number for the reference's site revision `r` (the first, 1, becomes 0). */
const shiftedRevision = (r: unknown) => (Number.isInteger(r) && (r as number) >= 1 ? 3 * ((r as number) - 1) : r);

/** `value` with every integer `siteRevision` and `publishedRevision`, at any depth, shifted (revisionsFromZero). */
function shiftRevisions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shiftRevisions);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'siteRevision' || k === 'publishedRevision' ? shiftedRevision(v) : shiftRevisions(v)]));
}

/** `value` with every string, at any depth, passed through `map` (keys left alone). */
function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
}

/**
 * groupedDraftChanges: one entry per kind of thing changed (the first word of the reference's kind: section, page,
 * post, …), with the newest revision and time of that group and how many changes it holds.
 */
function groupChanges(changes: unknown[]): unknown[] {
  const groups = new Map<string, { kind: string; count: number; revision?: unknown; at?: unknown }>();
  for (const change of changes) {
    if (!isObject(change)) continue;
    const kind = String(change.kind ?? 'change').split('-')[0]!;
    const group = groups.get(kind) ?? { kind, count: 0 };
    groups.set(kind, { ...group, count: group.count + 1, revision: change.revision, at: change.at });
  }
  return [...groups.values()].map((g) => ({ ...g, summary: `${g.count} change(s) of kind ${g.kind}` }));
}

const OTHER_PRESET_LABELS: Record<string, string> = { 'Full access': 'Everything', 'Read only': 'Look only', 'Content editing': 'Writer' };

/** The variant's key for a section key the reference made in add_section (otherSectionKeys): `<page>/added-<section>`. */
const otherKey = (key: string) => key.replace(/^([^/#]+)\/([^/#]+)/, '$1/added-$2');

const catalogue = new Set(loadTools().map((t) => t.name));
/** Every scope of §2.2 (pairingAsksEverything). */
const EVERY_SCOPE = loadJson<{ scopes: { name: string }[] }>('scopes.json').scopes.map((s) => s.name);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ownListNames, per tool: our list field → the variant's, and our id field in its items (or in the data) → the variant's path. */
const OWN_LIST_NAMES: Record<string, { list?: [string, string]; id: [string, string[]] }> = {
  list_sites: { list: ['sites', 'entries'], id: ['websiteId', ['site', 'ref']] },
  list_pages: { list: ['pages', 'entries'], id: ['pageId', ['ref']] },
  list_leads: { list: ['items', 'records'], id: ['leadId', ['ref']] },
  list_contacts: { list: ['items', 'records'], id: ['contactId', ['ref']] },
  list_sendable_documents: { list: ['documents', 'sendable'], id: ['documentId', ['ref']] },
  get_site_overview: { id: ['websiteId', ['site', 'ref']] },
  prepare_publish: { id: ['websiteId', ['site', 'ref']] },
  prepare_unpublish: { id: ['websiteId', ['site', 'ref']] },
};

/** `object` with our id field moved to the variant's path. */
function movedId(object: unknown, [ours, [first, second]]: [string, string[]]): unknown {
  if (!isObject(object) || !(ours in object) || !first) return object;
  const { [ours]: id, ...rest } = object;
  return { ...rest, [first]: second ? { ...(isObject(rest[first]) ? rest[first] : {}), [second]: id } : id };
}

function ownListNames(tool: string | undefined, data: unknown): unknown {
  const names = tool ? OWN_LIST_NAMES[tool] : undefined;
  if (!names || !isObject(data)) return data;
  if (!names.list) return movedId(data, names.id);
  const [ours, theirs] = names.list;
  if (!Array.isArray(data[ours])) return data;
  const { [ours]: items, ...rest } = data;
  return { ...rest, [theirs]: (items as unknown[]).map((item) => movedId(item, names.id)) };
}

type MessageOptions = VariantOptions & { dropDataField?: string; calledTool?: string; addedKeys?: Set<string> };

function transformEnvelope(envelope: unknown, options: MessageOptions): unknown {
  if (!isObject(envelope)) return envelope;
  if (envelope.ok === true) {
    let data = options.renameStatuses ? upperStatuses(envelope.data) : envelope.data;
    if (options.revisionsFromZero) {
      data = shiftRevisions(data);
      if (options.calledTool === 'list_draft_changes' && isObject(data) && Array.isArray(data.changes)) data = { ...data, changes: data.changes.map((c) => (isObject(c) ? { ...c, revision: shiftedRevision(c.revision) } : c)) };
    }
    if (options.sectionRevsFrom && (options.calledTool === 'get_section_json' || options.calledTool === 'replace_section_content') && isObject(data) && Number.isInteger(data.rev)) data = { ...data, rev: (data.rev as number) + options.sectionRevsFrom };
    if (options.otherSectionKeys && options.addedKeys) {
      const added = options.addedKeys;
      if (options.calledTool === 'add_section' && isObject(data) && typeof data.externalKey === 'string') added.add(data.externalKey);
      if (added.size) data = mapStrings(data, (s) => { const [key = '', field] = s.split('#'); return added.has(key) ? [otherKey(key), ...(field === undefined ? [] : [field])].join('#') : s; });
    }
    if (options.groupedDraftChanges && options.calledTool === 'list_draft_changes' && isObject(data) && Array.isArray(data.changes)) data = { ...data, changes: groupChanges(data.changes) };
    if (options.wrongSnapshot && options.calledTool === 'export_site') return { ...envelope, data: { format: 'SomethingElse', pages: [] } };
    if (options.snapshotAtRoot && options.calledTool === 'export_site' && isObject(data) && isObject(data.snapshot)) return { ...envelope, data: data.snapshot };
    if (options.dropDataField && isObject(data)) {
      const { [options.dropDataField]: _dropped, ...rest } = data;
      data = rest;
    }
    if (options.movePlanId && options.calledTool?.startsWith('prepare_') && isObject(data) && 'planId' in data) {
      const { planId, ...rest } = data;
      data = { ...rest, plan: { id: planId } };
    }
    if (options.ownListNames) data = ownListNames(options.calledTool, data);
    if (options.extraFields && isObject(data)) data = { ...data, variantNote: 'extra field' };
    return { ...envelope, data };
  }
  if (!isObject(envelope.error)) return envelope;
  let error: Record<string, unknown> = { ...envelope.error };
  if (options.renameCodes && typeof error.code === 'string') error.code = renamedCode(error.code);
  if (options.oneCodeForEveryRefusal) error.code = options.oneCodeForEveryRefusal;
  if (options.dropErrorDetails) error = { code: error.code, message: error.message };
  if (options.extraFields) error.variantNote = 'extra field';
  return { ...envelope, error };
}

/** `{ anyOf: [{ type: T, ...rest }, { type: 'null' }] }` anywhere in `node` becomes `{ type: [T, 'null'], ...rest }`. */
function typeUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typeUnions);
  if (!isObject(node)) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, typeUnions(v)]));
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.length === 2 && isObject(branches[1]) && branches[1].type === 'null' && isObject(branches[0]) && typeof branches[0].type === 'string') {
    const { anyOf: _anyOf, ...rest } = out;
    return { ...rest, ...branches[0], type: [branches[0].type, 'null'] };
  }
  return out;
}

function transformMessage(message: unknown, options: MessageOptions): unknown {
  if (!isObject(message) || !isObject(message.result)) return message;
  const result = { ...message.result };
  if (Array.isArray(result.tools) && options.extraFields) result.tools = result.tools.map((t) => (isObject(t) ? { ...t, _meta: { variant: 'extra field' } } : t));
  if (Array.isArray(result.tools) && options.dropListedTool) result.tools = result.tools.filter((t) => !isObject(t) || t.name !== options.dropListedTool);
  // renameStatuses: the statuses a tool takes are the variant's vocabulary too (§2.5: allowed values not shown).
  if (Array.isArray(result.tools) && options.renameStatuses) result.tools = result.tools.map((t) => (isObject(t) && t.name === 'crm_update' ? { ...t, inputSchema: upperStatusEnums(t.inputSchema) } : t));
  if (Array.isArray(result.tools) && options.typeUnionsInToolsList) result.tools = result.tools.map((t) => (isObject(t) ? { ...t, inputSchema: typeUnions(t.inputSchema) } : t));
  if (Array.isArray(result.tools) && options.outputSchemaInToolsList) result.tools = result.tools.map((t) => (isObject(t) ? { ...t, outputSchema: { type: 'object' } } : t));
  if (isObject(result.structuredContent) || Array.isArray(result.content)) {
    const envelope = transformEnvelope(result.structuredContent, options);
    if (result.structuredContent !== undefined) result.structuredContent = envelope;
    if (Array.isArray(result.content)) {
      result.content = result.content.map((item: unknown) => {
        if (!isObject(item) || item.type !== 'text' || typeof item.text !== 'string') return item;
        try {
          return { ...item, text: JSON.stringify(transformEnvelope(JSON.parse(item.text), options)) };
        } catch {
          return item;
        }
      });
    }
  }
  // A resource read carries the same envelope in its contents (as the reference does): the variant renames there too.
  if (Array.isArray(result.contents)) {
    result.contents = result.contents.map((item: unknown) => {
      if (!isObject(item) || typeof item.text !== 'string') return item;
      try {
        return { ...item, text: JSON.stringify(transformEnvelope(JSON.parse(item.text), options)) };
      } catch {
        return item;
      }
    });
  }
  return { ...message, result };
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startVariantProxy(targetUrl: string, options: VariantOptions): Promise<{ url: string; stop(): Promise<void> }> {
  let ownUrl = '';
  // answerTakenHostnamesUnprobed: hostnames connected through the proxy, with the authorization that connected each.
  const connectedBy = new Map<string, string | undefined>();
  // slowKnownSignIns: the emails of every world made through the proxy.
  const knownEmails = new Set<string>();
  // Addresses in answers name the proxy, as a real implementation's would name itself.
  const rebase = (text: string) => text.split(targetUrl).join(ownUrl);
  // And the proxy's addresses in requests name the target again, plain or URL-encoded (an OAuth resource
  // indicator, an authorization URL handed to the fixtures protocol), as the target knows only its own.
  const unrebase = (text: string) => text.split(ownUrl).join(targetUrl).split(encodeURIComponent(ownUrl)).join(encodeURIComponent(targetUrl));
  const forwardedBody = (body: Buffer, type = '') => (/json|x-www-form-urlencoded|^text\//.test(type) ? unrebase(body.toString('utf8')) : body);
  // honourConnectionIdHeader / oauthUsesNewestConnection: connections made through the fixtures protocol.
  const tokenOfConnection = new Map<string, string>();
  const newestTokenOfUser = new Map<string, string>();
  const rememberConnection = (request: Buffer, answer: string) => {
    try {
      const { userId } = JSON.parse(request.toString('utf8')) as { userId?: string };
      const { connectionId, token } = JSON.parse(answer) as { connectionId?: string; token?: string };
      if (connectionId && token) tokenOfConnection.set(connectionId, token);
      if (userId && token) newestTokenOfUser.set(userId, token);
    } catch {
      // not JSON: nothing to remember
    }
  };
  const swapAuthorization = (headers: Record<string, string>) => {
    const named = headers['x-connection-id'];
    if (options.honourConnectionIdHeader && named && tokenOfConnection.has(named)) headers.authorization = `Bearer ${tokenOfConnection.get(named)}`;
    const jwt = /^Bearer ([\w-]+)\.([\w-]+)\.[\w-]+$/.exec(headers.authorization ?? '');
    if (options.oauthUsesNewestConnection && jwt) {
      const { sub } = JSON.parse(Buffer.from(jwt[2]!, 'base64url').toString('utf8')) as { sub?: string };
      const newest = sub ? newestTokenOfUser.get(sub) : undefined;
      if (newest) headers.authorization = `Bearer ${newest}`;
    }
  };
  // otherSectionKeys: the keys of the sections add_section made, as the reference named them.
  const addedKeys = new Set<string>();
  // pollTokenAgain: each device code's answer that carried the token, answered again for every later poll.
  const handedOut = new Map<string, string>();
  const pollAgain = (request: Buffer, answer: string): string => {
    try {
      const { deviceCode } = JSON.parse(request.toString('utf8')) as { deviceCode?: unknown };
      const { status } = JSON.parse(answer) as { status?: unknown };
      if (typeof deviceCode !== 'string') return answer;
      if (status === 'approved') handedOut.set(deviceCode, answer);
      return status === 'redeemed' ? (handedOut.get(deviceCode) ?? answer) : answer;
    } catch {
      return answer;
    }
  };
  const server: Server = createServer(async (req, res) => {
    try {
      let body = await readBody(req);
      const asked = req.url ?? '/';
      // renamePairing.deliveryPath: the variant's delivery address is its own; the reference's is not served.
      const delivery = options.renamePairing?.deliveryPath;
      const [askedPath = '/', query = ''] = asked.split(/(?=\?)/);
      if (delivery && askedPath === REFERENCE_DELIVERY_PATH) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      const path = delivery && askedPath === delivery ? `${REFERENCE_DELIVERY_PATH}${query}` : asked;
      // renamePairing: the variant's pairing request in the reference's names.
      const pairingRenames = req.method === 'POST' && (path === '/v1/cli/pair/start' || path === '/v1/cli/pair/poll') ? options.renamePairing : undefined;
      if (pairingRenames) {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as unknown;
          if (isObject(parsed)) body = Buffer.from(JSON.stringify(renamePairingBody(parsed, pairingRenames, false)));
        } catch {
          // not JSON: the target answers it
        }
      }
      if (options.pairingAsksEverything && req.method === 'POST' && path === '/v1/cli/pair/start') {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as unknown;
          if (isObject(parsed)) body = Buffer.from(JSON.stringify({ ...parsed, scopes: EVERY_SCOPE }));
        } catch {
          // not JSON: the target answers it
        }
      }
      if (options.hidePathInsertedMetadata && /^\/\.well-known\/oauth-authorization-server\/./.test(path)) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not Found');
        return;
      }
      if ((options.unknownToolAsJsonRpcError || options.unknownToolCode) && path === '/api/mcp' && req.method === 'POST') {
        try {
          const message = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: string; params?: { name?: unknown } };
          if (message.method === 'tools/call' && typeof message.params?.name === 'string' && !catalogue.has(message.params.name) && req.headers.authorization) {
            res.writeHead(200, { 'content-type': 'application/json' });
            if (options.unknownToolCode) {
              // An envelope refusal with the variant's own code (§7.4: error codes not shown), activity aside.
              res.end(refusalResult(message.id, req.headers['mcp-protocol-version'], options.unknownToolCode, 'No tool of that name: ask tools/list for the catalogue.'));
            } else {
              res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, error: { code: -32602, message: `Unknown tool: ${message.params.name}` } }));
            }
            return;
          }
        } catch {
          // not JSON: the target answers it
        }
      }
      // The tool a tools/call names, for options that break one tool's results.
      let calledTool: string | undefined;
      try {
        const request = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: unknown } };
        if (request.method === 'tools/call' && typeof request.params?.name === 'string') calledTool = request.params.name;
      } catch {
        // not a single JSON message
      }
      // otherSectionKeys: a key of the variant's own in a request names the reference's section again.
      if (calledTool && options.otherSectionKeys && addedKeys.size) {
        const request = JSON.parse(body.toString('utf8')) as { params: { arguments?: unknown } };
        const ours = new Map([...addedKeys].map((k) => [otherKey(k), k]));
        request.params.arguments = mapStrings(request.params.arguments, (s) => { const [key = '', field] = s.split('#'); const theirs = ours.get(key); return theirs ? [theirs, ...(field === undefined ? [] : [field])].join('#') : s; });
        body = Buffer.from(JSON.stringify(request));
      }
      // sectionRevsFrom: the variant's clientRev read back as the reference's; one the variant never issued is stale.
      if (calledTool === 'replace_section_content' && options.sectionRevsFrom) {
        const request = JSON.parse(body.toString('utf8')) as { params: { arguments?: Record<string, unknown> } };
        const clientRev = request.params.arguments?.clientRev;
        if (request.params.arguments && Number.isInteger(clientRev)) request.params.arguments.clientRev = (clientRev as number) >= options.sectionRevsFrom ? (clientRev as number) - options.sectionRevsFrom : 1_000_000_000;
        body = Buffer.from(JSON.stringify(request));
      }
      // renameStatuses: crm_update takes the variant's lead statuses (upper case) and no other; one of the reference's
      // is refused as invalid, the variant's is the reference's again.
      if (calledTool === 'crm_update' && options.renameStatuses) {
        const request = JSON.parse(body.toString('utf8')) as { id?: unknown; params: { arguments?: { recordType?: unknown; changes?: Record<string, unknown> } } };
        const status = request.params.arguments?.recordType === 'lead' ? request.params.arguments.changes?.status : undefined;
        if (typeof status === 'string' && status !== status.toUpperCase()) {
          const code = options.renameCodes ? renamedCode('validation_failed') : 'validation_failed';
          res.writeHead(200, { 'content-type': 'application/json' }).end(refusalResult(request.id, req.headers['mcp-protocol-version'], code, `Unknown status ${JSON.stringify(status)}: tools/list names the statuses this server takes.`));
          return;
        }
        if (typeof status === 'string' && request.params.arguments?.changes) request.params.arguments.changes.status = status.toLowerCase();
        body = Buffer.from(JSON.stringify(request));
      }
      // Broken servers that change what the target is asked (tool arguments cut to the bounds, a taken hostname
      // swapped for a nonexistent one).
      let swapped: { from: string; to: string } | undefined;
      if (calledTool && (options.cutArgumentsTo || options.answerTakenHostnamesUnprobed || (options.migrateNeverMerges && calledTool === 'migrate_site_from_url'))) {
        const request = JSON.parse(body.toString('utf8')) as { params: { arguments?: Record<string, unknown> } };
        if (options.migrateNeverMerges && request.params.arguments) delete request.params.arguments.mergeIntoWebsiteId;
        if (options.cutArgumentsTo) request.params.arguments = cutToBounds(request.params.arguments ?? {}, options.cutArgumentsTo) as Record<string, unknown>;
        const hostname = request.params.arguments?.hostname;
        if (options.answerTakenHostnamesUnprobed && calledTool === 'connect_domain' && typeof hostname === 'string') {
          const owner = connectedBy.get(hostname.toLowerCase());
          if (owner !== undefined && owner !== req.headers.authorization) {
            swapped = { from: hostname, to: `absent-${Math.random().toString(36).slice(2, 10)}.invalid` };
            request.params.arguments = { ...request.params.arguments, hostname: swapped.to };
          }
        }
        body = Buffer.from(JSON.stringify(request));
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
      // A browser's Origin and Referer name the proxy; the target sees its own, as behind a reverse proxy.
      for (const key of ['origin', 'referer']) if (headers[key]) headers[key] = headers[key]!.split(ownUrl).join(targetUrl);
      if (path === '/api/mcp') swapAuthorization(headers);
      // The broken servers of the 2026 era's wire (rules mcp-eras-both, mcp-2026-*), on the request side.
      let mcpMethod: string | undefined;
      if (path === '/api/mcp' && req.method === 'POST' && breaksModernEra(options)) {
        let message: unknown;
        try {
          message = JSON.parse(body.toString('utf8'));
        } catch {
          message = undefined;
        }
        if (isObject(message) && typeof message.method === 'string') mcpMethod = message.method;
        const modern = isModernMessage(message) || (headers['mcp-protocol-version'] ?? '') >= '2026-07-28';
        if (options.only2025Era && modern) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: isObject(message) ? (message.id ?? null) : null, error: { code: -32601, message: 'Method not found' } }));
          return;
        }
        if (isModernMessage(message)) {
          if (options.acceptAnyModernRevision && String(message.params._meta[PROTOCOL_VERSION_META]) > '2026-07-28') {
            message.params._meta[PROTOCOL_VERSION_META] = '2026-07-28';
            headers['mcp-protocol-version'] = '2026-07-28';
            body = Buffer.from(JSON.stringify(message));
          }
          if (options.headersFromBody && typeof message.method === 'string') {
            headers['mcp-method'] = message.method;
            const named = message.params.name ?? message.params.uri;
            if (typeof named === 'string') headers['mcp-name'] = named;
          }
        }
      }
      const signIn = req.method === 'POST' && String(req.headers['content-type']).includes('application/x-www-form-urlencoded') && new URLSearchParams(body.toString('utf8')).has('password');
      if (options.slowKnownSignIns && signIn && knownEmails.has(String(new URLSearchParams(body.toString('utf8')).get('email')).trim().toLowerCase())) await new Promise((r) => setTimeout(r, 4000));
      // A pairing start reaches the target from the client's own address, as through a transparent proxy, so the
      // target's per-address throttle (other-limits.json: stricter than the reference's) counts the kit's addresses.
      // Sign-ins still come from the proxy's: the variant's declaration does not adopt the sign-in throttles.
      const pairStart = path === '/v1/cli/pair/start' && req.method === 'POST';
      const clientAddress = req.socket.remoteAddress?.replace(/^::ffff:/, '');
      const from = (options.pairStartFromFreshAddresses && pairStart) || (options.signInFromFreshAddresses && signIn) ? randomLoopback() : pairStart && clientAddress?.startsWith('127.') ? clientAddress : undefined;
      const upstream = from
        ? await postFromAddress(`${targetUrl}${path}`, from, headers, body)
        : await fetch(`${targetUrl}${unrebase(path)}`, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : forwardedBody(body, req.headers['content-type']), redirect: 'manual' });
      // A binary body (an imported asset's copy, rule portable-site-assets-carried) passes byte for byte: decoded
      // as text to rebase it, it would be corrupted.
      const raw = Buffer.from(await upstream.arrayBuffer());
      const textual = /json|^text\/|html|xml|javascript|x-www-form-urlencoded/.test(upstream.headers.get('content-type') ?? 'text/');
      let text = textual ? rebase(raw.toString('utf8')) : '';
      if (swapped) text = text.split(swapped.to).join(swapped.from);
      if (options.answerTakenHostnamesUnprobed && calledTool === 'connect_domain' && !swapped && text.includes('"ok":true')) {
        const hostname = (JSON.parse(body.toString('utf8')) as { params: { arguments?: { hostname?: unknown } } }).params.arguments?.hostname;
        if (typeof hostname === 'string') connectedBy.set(hostname.toLowerCase(), req.headers.authorization);
      }
      if (path === '/test-fixtures/v1/connections' && req.method === 'POST' && upstream.ok) rememberConnection(body, text);
      if (options.pollTokenAgain && req.method === 'POST' && path === '/v1/cli/pair/poll') text = pollAgain(body, text);
      if (options.dropScopeCheckboxes && path.startsWith('/dashboard/connect')) text = text.replace(/type="checkbox"/gi, 'type="hidden"');
      const type = upstream.headers.get('content-type') ?? '';
      if (type.includes('application/json') && text) {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (pairingRenames && isObject(parsed)) {
            text = JSON.stringify(renamePairingBody(parsed, pairingRenames, true));
          } else if (path === '/api/mcp' && breaksModernEra(options)) {
            text = JSON.stringify(Array.isArray(parsed) ? parsed.map((m) => breakModernAnswer(m, mcpMethod, options)) : breakModernAnswer(parsed, mcpMethod, options));
          } else if (path === '/api/mcp') {
            const forMessage = { ...options, calledTool, addedKeys, dropDataField: options.dropResultField?.tool === calledTool ? options.dropResultField?.field : undefined };
            text = JSON.stringify(Array.isArray(parsed) ? parsed.map((m) => transformMessage(m, forMessage)) : transformMessage(parsed, forMessage));
          }
          else if (options.dropRegistrationEndpoint && /\/\.well-known\/(openid-configuration|oauth-authorization-server)/.test(path) && isObject(parsed)) {
            const { registration_endpoint: _dropped, ...rest } = parsed;
            text = JSON.stringify(rest);
          }
          else if (options.dropMetadataDocumentSupport && /\/\.well-known\/(openid-configuration|oauth-authorization-server)/.test(path) && isObject(parsed)) {
            const { client_id_metadata_document_supported: _dropped, ...rest } = parsed;
            text = JSON.stringify(rest);
          }
          // renamePairing: the fixtures handshake names the variant's pairing names, as a declaration's pairing block.
          else if (options.renamePairing && path === '/test-fixtures/v1' && req.method === 'GET' && isObject(parsed)) {
            const { fields, statuses, scopesAsString, deliveryPath } = options.renamePairing;
            text = JSON.stringify({ ...parsed, pairingNames: { fields, statuses, scopesAs: scopesAsString ? 'string' : 'array', deliveryPath } });
          }
          else if (options.slowKnownSignIns && path === '/test-fixtures/v1/worlds' && isObject(parsed) && isObject(parsed.users)) {
            for (const user of Object.values(parsed.users)) if (isObject(user) && typeof user.email === 'string') knownEmails.add(user.email.toLowerCase());
          }
          else if (options.hideActivity && /^\/test-fixtures\/v1\/connections\/[^/]+\/activity/.test(path) && isObject(parsed)) {
            text = JSON.stringify({ ...parsed, entries: [] });
          }
          else if (options.renameCodes && /^\/test-fixtures\/v1\/connections\/[^/]+\/activity/.test(path) && isObject(parsed) && Array.isArray(parsed.entries)) {
            text = JSON.stringify({ ...parsed, entries: parsed.entries.map((e) => (isObject(e) && typeof e.code === 'string' ? { ...e, code: renamedCode(e.code) } : e)) });
          }
          // The fixtures protocol names one refusal code (owner_only); the variant renames every other.
          else if (options.renameCodes && path.startsWith('/test-fixtures/') && upstream.status >= 400 && isObject(parsed) && isObject(parsed.error) && typeof parsed.error.code === 'string' && parsed.error.code !== 'owner_only') {
            text = JSON.stringify({ ...parsed, error: { ...parsed.error, code: renamedCode(parsed.error.code) } });
          }
          else if (options.revisionsFromZero && /^\/test-fixtures\/v1\/(sites\/|app-edits)/.test(path) && upstream.ok) {
            text = JSON.stringify(shiftRevisions(parsed));
          }
          else if (options.otherPresetLabels && /^\/test-fixtures\/v1\/connections\/[^/?]+$/.test(path) && req.method === 'GET' && isObject(parsed) && typeof parsed.presetLabel === 'string') {
            text = JSON.stringify({ ...parsed, presetLabel: OTHER_PRESET_LABELS[parsed.presetLabel] ?? parsed.presetLabel });
          }
        } catch {
          // leave a body that is not JSON as it is
        }
      }
      const out: Record<string, string | string[]> = {};
      const cookies = upstream.headers.getSetCookie().map((c) => (options.weakenCookies ? c.replace(/;\s*(HttpOnly|SameSite=[^;]*)/gi, '') : c));
      if (cookies.length) out['set-cookie'] = cookies;
      upstream.headers.forEach((value, key) => {
        if (key === 'set-cookie') return;
        if (options.dropSecurityHeaders && SECURITY_HEADERS.has(key) && !path.startsWith('/api/mcp') && !path.startsWith('/test-fixtures')) return;
        if (options.narrowChallengeScope && key === 'www-authenticate') return void (out[key] = rebase(value).replace(/scope="[^"]*"/, 'scope="site:read"'));
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(key)) out[key] = rebase(value);
      });
      res.writeHead(upstream.status, out);
      res.end(textual ? text : raw);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`variant proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: ownUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
