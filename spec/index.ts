// The one loader of spec/: the reference server, the conformance suite, the type generator and the spec
// tests all read the specification through this module, so there is one interpretation of it. Nothing else
// opens a file of spec/: the reference takes its limits, scopes, plan kinds, resources and prompts from the
// loaders below (AGENTS.md: a fact has one home).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { PlanStates } from '../generated/schemas/plan-states.js';
import type { ToolDefinition as GeneratedToolDefinition } from '../generated/schemas/tool-definition.js';
import type { PlanKind } from '../generated/schemas/common.js';

export type { PlanStates };

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export const specDir = fileURLToPath(new URL('.', import.meta.url));
/** Schema $ids live under this base; it is never fetched — it maps to specDir. */
export const SPEC_BASE = 'https://site-mcp.invalid/spec/';

export type Keyword = 'must' | 'must-not' | 'may';

export interface Rule {
  id: string;
  section: string;
  keyword: Keyword;
  text: string;
  decision?: boolean;
  untestable?: string;
  /** false: no black-box check can observe the rule; `checkedBy` names the tests that check it instead. */
  blackBox?: false;
  /** Test files (relative to the repository) that check a rule marked `blackBox: false`. */
  checkedBy?: string[];
  /** Why no check through the MCP endpoint, the public endpoints or the fixtures protocol can observe it. */
  whyNotBlackBox?: string;
  /** The catalogue file it came from, relative to spec/. */
  file: string;
}

/**
 * One tool of spec/tools, as spec/schemas/tool-definition.schema.json types it (generated), its input and output
 * schemas as plain JSON Schema objects.
 */
export type ToolDefinition = Omit<GeneratedToolDefinition, 'inputSchema' | 'outputSchema'> & {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function walk(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, suffix));
    else if (name.endsWith(suffix)) out.push(path);
  }
  return out;
}

const rel = (path: string) => path.slice(specDir.length);

let rulesCache: Rule[] | undefined;
export function loadRules(): Rule[] {
  if (!rulesCache) {
    rulesCache = [];
    for (const path of walk(join(specDir, 'rules'), '.yaml')) {
      const file = parseYaml(readFileSync(path, 'utf8')) as { rules: Omit<Rule, 'file'>[] };
      for (const rule of file.rules ?? []) rulesCache.push({ ...rule, file: rel(path) });
    }
  }
  return rulesCache;
}

export function ruleIds(): Set<string> {
  return new Set(loadRules().map((r) => r.id));
}

export function loadRuleFiles(): { file: string; content: unknown }[] {
  return walk(join(specDir, 'rules'), '.yaml').map((path) => ({ file: rel(path), content: parseYaml(readFileSync(path, 'utf8')) }));
}

let toolsCache: ToolDefinition[] | undefined;
export function loadTools(): ToolDefinition[] {
  if (!toolsCache) {
    toolsCache = walk(join(specDir, 'tools'), '.json')
      .map((path) => JSON.parse(readFileSync(path, 'utf8')) as ToolDefinition)
      .sort((a, b) => a.name.localeCompare(b.name));
  }
  return toolsCache;
}

/**
 * Whether the call path resolves and authorizes one website before the tool's handler runs: the spec says so in
 * "target" (website; not a plan's or an approval anchor's websiteId). Read by the call path and by the type
 * generator, so a handler's typed `site` and the gate cannot disagree.
 */
export function targetsSite(definition: ToolDefinition): boolean {
  return definition.target === 'website';
}

export function toolFiles(): { file: string; definition: ToolDefinition }[] {
  return walk(join(specDir, 'tools'), '.json').map((path) => ({ file: rel(path), definition: JSON.parse(readFileSync(path, 'utf8')) as ToolDefinition }));
}

export function toolByName(name: string): ToolDefinition | undefined {
  return loadTools().find((t) => t.name === name);
}

let schemasCache: Map<string, Record<string, Json>> | undefined;
/** Every *.schema.json under spec/schemas, keyed by its $id. */
export function loadSchemas(): Map<string, Record<string, Json>> {
  if (!schemasCache) {
    schemasCache = new Map();
    for (const path of walk(join(specDir, 'schemas'), '.schema.json')) {
      const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Json>;
      const expected = `${SPEC_BASE}${rel(path)}`;
      if (schema.$id !== expected) throw new Error(`${rel(path)}: $id must be ${expected}`);
      schemasCache.set(expected, schema);
    }
  }
  return schemasCache;
}

export const toolSchemaId = (name: string, which: 'input' | 'output') => `${SPEC_BASE}tools/${name}.${which}.json`;

/** A strict Ajv (draft 2020-12, formats) holding every spec schema and every tool's input and output schema. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const schema of loadSchemas().values()) ajv.addSchema(schema);
  for (const tool of loadTools()) {
    ajv.addSchema({ ...tool.inputSchema, $id: toolSchemaId(tool.name, 'input') });
    ajv.addSchema({ ...tool.outputSchema, $id: toolSchemaId(tool.name, 'output') });
  }
  return ajv;
}

let sharedAjvCache: Ajv2020 | undefined;
/** One Ajv per process for everyone who only validates: schemas compile once, not once per module. */
export function sharedAjv(): Ajv2020 {
  sharedAjvCache ??= createAjv();
  return sharedAjvCache;
}

/**
 * One tool's input or output validator from the shared Ajv, compiled on first use and kept by Ajv: a process that
 * checks a few tools' answers (a conformance worker) compiles those, not all 2 x 46 schemas at start-up. Undefined
 * for a name that is not a tool of spec/tools.
 */
export function toolValidator(name: string, which: 'input' | 'output'): ValidateFunction | undefined {
  if (!toolByName(name)) return undefined;
  return sharedAjv().getSchema(toolSchemaId(name, which));
}

/** Documents too large to inline into tools/list: a whole-document $ref to one collapses to a short stand-in. */
const COLLAPSED: Record<string, Json> = {
  [`${SPEC_BASE}schemas/portable-site-v1.schema.json`]: { type: 'object', description: 'A PortableSiteV1 snapshot (export_site output).' },
};

function resolvePointer(doc: Json, pointer: string): Json {
  let node: Json = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, Json>)[key]!;
    if (node === undefined) throw new Error(`unresolvable pointer ${pointer}`);
  }
  return node;
}

/**
 * Inlines every $ref so a schema stands alone, as tools/list needs. `baseId` is the $id of the document
 * `root` that `node` sits in; relative refs resolve against it.
 */
export function inlineRefs(node: Json, baseId: string, root: Json, depth = 0): Json {
  if (depth > 32) throw new Error(`$ref nesting too deep at ${baseId}`);
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, baseId, root, depth));
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const [docPart, pointer = ''] = node.$ref.split('#');
    const docId = docPart ? new URL(docPart, baseId).href : baseId;
    if (!pointer && COLLAPSED[docId]) return COLLAPSED[docId]!;
    const doc = docId === baseId ? root : loadSchemas().get(docId);
    if (doc === undefined) throw new Error(`unresolvable $ref ${node.$ref} from ${baseId}`);
    const { $ref: _ref, ...siblings } = node;
    const target = inlineRefs(resolvePointer(doc, pointer), docId, doc, depth + 1) as Record<string, Json>;
    return { ...target, ...(inlineRefs(siblings, baseId, root, depth) as Record<string, Json>) };
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === '$comment' || key === '$defs') continue;
    out[key] = inlineRefs(value, baseId, root, depth);
  }
  return out;
}

/**
 * The input schema as tools/list publishes it: refs inlined, and a plain object at the root. Several MCP
 * hosts reject a root oneOf/anyOf/allOf (and then drop the tool or the whole server), so a discriminated
 * input (crm_update) is published as the union of its branches' properties with the properties every branch
 * requires, and a root anyOf that only demands "one of these fields" (update_page_seo) is left out. The
 * server still validates every call against the strict spec schema (rule tools-list-plain-object-inputs).
 */
export function publishedInputSchema(tool: ToolDefinition): Record<string, Json> {
  const inlined = inlineRefs(tool.inputSchema as Json, toolSchemaId(tool.name, 'input'), tool.inputSchema as Json) as Record<string, Json>;
  const { oneOf, anyOf: _anyOf, allOf: _allOf, ...root } = inlined;
  if (!Array.isArray(oneOf)) return root;
  const branches = oneOf as Record<string, Json>[];
  const properties: Record<string, Json> = {};
  for (const branch of branches) {
    for (const [key, schema] of Object.entries((branch.properties ?? {}) as Record<string, Json>)) {
      const seen = properties[key] as Record<string, Json> | undefined;
      if (!seen) properties[key] = schema;
      else if (JSON.stringify(seen) !== JSON.stringify(schema)) {
        // Same property, different shapes per branch: publish the alternatives (a nested anyOf is accepted).
        const options = (seen.anyOf as Json[] | undefined) ?? [seen];
        properties[key] = { anyOf: [...options, schema] };
      }
    }
  }
  const requiredSets = branches.map((b) => new Set((b.required ?? []) as string[]));
  const required = [...requiredSets[0]!].filter((k) => requiredSets.every((set) => set.has(k)));
  return { ...root, type: 'object', properties, required, additionalProperties: false };
}

/**
 * What tools/list would carry as a tool's MCP outputSchema if it published one: the success envelope that
 * structuredContent holds, `{ ok: true, data }`, with the tool's output schema inlined as `data`. tools/list does
 * not publish it (rule tools-list-no-output-schema); the size test measures it to keep that decision's figure true.
 */
export function outputSchemaAsPublished(tool: ToolDefinition): Record<string, Json> {
  const data = inlineRefs(tool.outputSchema as Json, toolSchemaId(tool.name, 'output'), tool.outputSchema as Json);
  return { type: 'object', properties: { ok: { const: true }, data }, required: ['ok', 'data'] };
}

/** The MCP tools/list result, built from spec/tools (rule tools-list-size is measured on it). */
export function toolsListPayload(): { tools: { name: string; title: string; description: string; inputSchema: Json; annotations: Json }[] } {
  return {
    tools: loadTools().map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: publishedInputSchema(t),
      annotations: t.annotations as Json,
    })),
  };
}

/** Reads a data file of spec/ (scopes.json, limits.json, …); a missing one is an error, never undefined. */
export function loadJson<T = unknown>(relPath: string): T {
  return JSON.parse(readFileSync(join(specDir, relPath), 'utf8')) as T;
}

/** A window of a rate limit or throttle. */
export interface LimitWindow {
  limit: number;
  windowSeconds: number;
}

/** spec/limits.json. */
export interface Limits {
  rateLimits: { perConnection: LimitWindow; perWorkspace: LimitWindow };
  throttles: Record<string, LimitWindow>;
  planLifetimeSeconds: number;
  /** The largest document the store writes: one site, or a workspace without its sites (rule store-document-size-capped). */
  documentMaxBytes: { value: number };
  /** A site's restore points: at most `max`, together at most `maxBytes`, the newest always kept (rule import-merge-restore-point). */
  restorePoints: { max: number; maxBytes: number };
  /** The expired plans a workspace remembers, so a late confirm answers plan_expired (rule plan-expired-garbage-collected). */
  expiredPlanTombstones: { value: number };
  activityRetentionDays: number;
  /**
   * Rules activity-name-bounded, activity-refusals-folded, activity-read-newest-first: the characters of a caller's
   * name kept in an entry, how long a connection's rate-limited refusals fold into one counted entry, and what one
   * page of the Developers settings shows and may read (entries, bytes scanned, the longest line it parses).
   */
  activityLog: { maxNameCharacters: number; foldRefusedSeconds: number; pageEntries: number; pageScanBytes: number; maxLineBytes: number };
  importMaxBytes: { value: number };
  /** The bytes of kept asset copies one workspace's sites may name (rule import-assets-within-storage-quota). */
  assetStorage: { perWorkspaceBytes: number };
  siteLimitByPlan: Record<string, number>;
  imageCreditCost: { value: number };
  visualCaptureAllowancePages: number;
  /** Visual capture (rules capture-bytes-bounded, capture-fair-between-workspaces). */
  capture: { pageBytes: number; waitSeconds: number };
  /** In-memory maps keyed by caller input (rule memory-caller-keyed-maps-bounded). */
  memory: { limiterKeys: number; directoryMisses: number; appSessionsPerUser: number };
  toolArguments: { maxDepth: number; maxNodes: number };
  /**
   * Dynamic client registration (rules oauth-registration-throttled-per-address, oauth-registration-metadata-capped,
   * oauth-unused-clients-expire): registrations per client address, the largest body, how long an unused client lives.
   */
  oauthRegistration: { perAddress: LimitWindow; maxMetadataBytes: number; unusedClientSeconds: number };
  /** Authorization requests at the identity provider (rule oauth-authorization-requests-bounded). */
  oauthAuthorization: { perAddress: LimitWindow; maxInteractions: number };
  /** What makes the identity provider fetch a client's metadata document (rule oauth-client-documents-fetch-bounded). */
  oauthClientDocuments: { perAddress: LimitWindow; overall: LimitWindow; failureCacheSeconds: number; failureCacheEntries: number; perHostConcurrent: number; maxRedirects: number };
  /** Failed app sign-ins (rules sign-in-throttled-per-account, sign-in-throttled-per-address, sign-in-known-address-admitted). */
  signIn: { perAccount: LimitWindow; perAddress: LimitWindow; knownAddressSeconds: number };
  /** POST /v1/cli/pair/start and the pairings held (rules pair-start-throttled-per-address, pairings-in-memory-capped, pairings-capacity-per-address, pairings-capacity-per-owner). */
  pairStart: { perAddress: LimitWindow; perNetwork?: LimitWindow; maxPending: number; maxPendingPerAddress: number; maxPendingPerOwner: number };
  /** User codes entered at /dashboard/connect that match no pairing of the person's workspace (rule pairing-code-guesses-throttled). */
  pairCode: { perUser: LimitWindow; perAddress: LimitWindow };
  /** What one import fetches of its snapshot's assets (rules import-site-assets-revalidated, import-assets-time-bounded). */
  importAssets: { maxAssets: number; maxBytes: number; fetchSeconds: number; totalSeconds: number };
  /** What the crawler of migrate_site_from_url reads of a source website (rule migrate-crawl-work-bounded). */
  crawl: { robotsMaxBytes: number; robotsMatchCharacters: number; robotsMatchSlice: number; urlMaxCharacters: number; fetchSeconds: number; deadlineSeconds: number; migrationSeconds: number };
}

let limitsCache: Limits | undefined;
export function loadLimits(): Limits {
  limitsCache ??= loadJson<Limits>('limits.json');
  return limitsCache;
}

/** spec/scopes.json. */
export interface ScopesFile {
  scopes: { name: string; default: 'always' | 'on' | 'off'; implies: string[]; grants: string; since?: string }[];
  presets: { name: string; label: string; versions: { from: string; scopes: string[] }[] }[];
  customLabel: string;
}

let scopesCache: ScopesFile | undefined;
export function loadScopes(): ScopesFile {
  scopesCache ??= loadJson<ScopesFile>('scopes.json');
  return scopesCache;
}

let planStatesCache: PlanStates | undefined;
/** spec/plan-states.json, validated against spec/schemas/plan-states.schema.json (a broken file fails at start-up). */
export function loadPlanStates(): PlanStates {
  if (!planStatesCache) {
    const file = loadJson<PlanStates>('plan-states.json');
    const validate = sharedAjv().getSchema(`${SPEC_BASE}schemas/plan-states.schema.json`)!;
    if (!validate(file)) throw new Error(`spec/plan-states.json does not match its schema: ${sharedAjv().errorsText(validate.errors)}`);
    planStatesCache = file;
  }
  return planStatesCache;
}

/**
 * The prepare_* tool of a plan kind: its scopes and gates are the plan's, re-checked at redemption (rule
 * plan-redeem-reauthorizes-anchor), and its "plan" says what the plan pins and does.
 */
export function prepareToolOf(kind: PlanKind): ToolDefinition {
  const tool = loadTools().find((t) => t.planKind === kind);
  if (!tool) throw new Error(`spec/tools has no prepare_* tool for the plan kind "${kind}"`);
  return tool;
}

/** spec/resources.json: each resource mirrors a site:read tool (§4.4). */
export interface ResourceSpec { uri: string; name: string; title: string; mimeType: string; tool: string; description: string }
export function loadResources(): ResourceSpec[] {
  return loadJson<{ resources: ResourceSpec[] }>('resources.json').resources;
}

/** spec/prompts.json (§4.5). */
export interface PromptSpec { name: string; title: string; description: string; arguments: { name: string; description: string; required: boolean }[]; template: string }
export function loadPrompts(): PromptSpec[] {
  return loadJson<{ prompts: PromptSpec[] }>('prompts.json').prompts;
}
