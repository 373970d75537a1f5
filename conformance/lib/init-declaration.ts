// What `site-mcp init` (conformance/init.ts) observes of a target, through the fixtures protocol and one site:read
// connection it creates there, and the starting declaration it writes from that: only choices the target showed,
// each commented with the rule it concerns (spec/schemas/declaration.schema.json). The kit's own discovery is reused:
// the world answer's sectionVocabulary (what learnSectionVocabulary in declaration.ts learns during a run) and the
// catalogue tools tools/list does not name (what a run treats as not implemented).
import { isDeepStrictEqual } from 'node:util';
import { loadJson, loadTools } from '../../spec/index.js';
import { FixturesClient } from './fixtures-client.js';
import { CheckFailure } from './checks.js';
import { McpConnection } from './mcp-client.js';

type Vocabulary = { types: Record<string, string>; fields: Record<string, string> };
export interface Observed {
  /** The world answer's sectionVocabulary, limited to the kit's types and fields the declaration can map. */
  sections?: Vocabulary;
  /** §4.3 tools tools/list does not name. */
  missingTools: string[];
  listedTools: number;
  /** Whether the MCP endpoint's 401 names protected-resource metadata (RFC 9728 resource_metadata). */
  oauthMetadata: boolean;
  unknownTool?: { by: 'envelope'; code?: string } | { by: 'json-rpc-error' };
  /** Each tool result observed carried the envelope in structuredContent and its text item, isError exactly when ok was false. */
  mcpEncoding: boolean;
  /** How many tool results that judgement rests on. */
  encodingCalls: number;
  /** The name and version the MCP handshake gave (initialize's serverInfo, or server/discover's in 2026-07-28). */
  implementation?: { name: string; version: string };
}

/** A name for a tool no catalogue has: the target's refusal of it is observed. */
export const NO_SUCH_TOOL = 'site_mcp_init_no_such_tool';

interface ToolResult { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean }

/** Whether one tool result carries the same { ok, … } envelope in both encodings, isError exactly when ok is false. */
function bothEncodings(result: ToolResult): boolean {
  const structured = result.structuredContent as { ok?: unknown } | undefined;
  const text = result.content?.find((c) => c.type === 'text')?.text;
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return false;
  }
  return typeof structured?.ok === 'boolean' && isDeepStrictEqual(parsed, structured) && Boolean(result.isError) === (structured.ok === false);
}

export async function observeTarget(target: { url: string; fixturesSecret: string }, supports: string[] = []): Promise<Observed> {
  const fixtures = new FixturesClient(target.url, target.fixturesSecret);
  const world = await fixtures.world({
    users: [{ key: 'owner' }],
    sites: [{ key: 'main', members: { owner: 'owner' } }],
    ...(supports.includes('passwords-on-demand') ? { passwordsOnDemand: true } : {}),
  });
  const websiteId = world.sites.main!.websiteId;
  const created = await fixtures.connection({ userId: world.users.owner!.userId, websiteId, scopes: ['site:read'] });
  const mcp = new McpConnection(target.url, created.token);
  try {
    const listed = new Set((await mcp.listTools()).tools.map((t) => t.name));
    const serverInfo = (await mcp.client()).getServerVersion();
    const implementation = serverInfo && typeof serverInfo.name === 'string' && serverInfo.name ? { name: serverInfo.name, version: String(serverInfo.version ?? '') } : undefined;
    const results: ToolResult[] = [];
    let unknownTool: Observed['unknownTool'];
    // Through the kit's own connection (either protocol era, its source checks on each answer): a call that fails a
    // check tells init nothing, and the run will say why.
    const call = async (tool: string, args: Record<string, unknown>) => {
      try {
        return (await mcp.callTool(tool, args)).record as { result?: ToolResult; jsonRpcError?: unknown };
      } catch (error) {
        if (error instanceof CheckFailure) return undefined;
        throw error;
      }
    };
    const refused = await call(NO_SUCH_TOOL, {});
    if (refused?.jsonRpcError) unknownTool = { by: 'json-rpc-error' };
    else if (refused?.result) {
      results.push(refused.result);
      const envelope = refused.result.structuredContent as { ok?: boolean; error?: { code?: unknown } } | undefined;
      if (envelope?.ok === false) unknownTool = { by: 'envelope', ...(typeof envelope.error?.code === 'string' ? { code: envelope.error.code } : {}) };
    }
    if (listed.has('get_site_overview')) {
      const overview = await call('get_site_overview', { websiteId });
      if (overview?.result) results.push(overview.result);
    }
    const challenge = await fetch(`${target.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await challenge.body?.cancel();
    const allowed = loadJson<{ properties: { sections: { properties: Record<'types' | 'fields', { propertyNames: { enum: string[] } }> } } }>('schemas/declaration.schema.json').properties.sections.properties;
    const vocabulary = world.sectionVocabulary;
    const pick = (kind: 'types' | 'fields') =>
      Object.fromEntries(Object.entries(vocabulary?.[kind] ?? {}).filter((e): e is [string, string] => allowed[kind].propertyNames.enum.includes(e[0]) && typeof e[1] === 'string' && e[1] !== ''));
    const sections = vocabulary ? { types: pick('types'), fields: pick('fields') } : undefined;
    return {
      ...(sections && (Object.keys(sections.types).length || Object.keys(sections.fields).length) ? { sections } : {}),
      missingTools: loadTools().map((t) => t.name).filter((name) => !listed.has(name)).sort(),
      listedTools: listed.size,
      oauthMetadata: challenge.status === 401 && /resource_metadata=/i.test(challenge.headers.get('www-authenticate') ?? ''),
      ...(unknownTool ? { unknownTool } : {}),
      mcpEncoding: results.length > 0 && results.every(bothEncodings),
      encodingCalls: results.length,
      ...(implementation ? { implementation } : {}),
    };
  } finally {
    await mcp.close();
  }
}

const q = (s: string) => JSON.stringify(s);
/** A YAML block map of `map` at `indent`, each key and value quoted as JSON (valid YAML). */
const block = (map: Record<string, string>, indent: string) => Object.entries(map).map(([k, v]) => `${indent}${k}: ${q(v)}`);

/** The declaration YAML for what was observed: each entry commented with its rule, what was not observed said so. */
export function declarationYaml(o: Observed, about: { url: string; supports: string[] }): string {
  const lines = [
    `# A starting declaration for ${about.url}, written by \`site-mcp init\` from what the kit observed there`,
    '# (spec/schemas/declaration.schema.json; conformance/docs/declaration.md). A declared choice is',
    '# checked on every call of the run, so keep only what your server always does, and add what init cannot observe.',
    `# Fixtures parts the handshake listed: ${about.supports.length ? about.supports.join(', ') : 'none'}.`,
    'declarationVersion: 1',
  ];
  if (o.implementation) {
    lines.push('# What the MCP handshake named (serverInfo): the reports carry it', 'implementation:', `  name: ${q(o.implementation.name)}`, ...(o.implementation.version ? [`  version: ${q(o.implementation.version)}`] : []));
  } else lines.push('# The MCP handshake named no server (serverInfo): implementation not declared');
  if (o.mcpEncoding) {
    lines.push(`# rule tool-result-envelope: the ${o.encodingCalls} tool results observed carried the envelope as structuredContent and as`, '# the JSON of their text item, isError exactly when ok was false', 'mcpEncoding: true');
  } else lines.push('# rule tool-result-envelope: not every tool result observed carried the envelope in both encodings: mcpEncoding not declared');
  if (o.unknownTool?.by === 'envelope') {
    lines.push(`# rule error-failure-shape: a call of a tool that does not exist (${NO_SUCH_TOOL}) was refused by an envelope`, 'unknownTool: envelope');
    if (o.unknownTool.code) lines.push('errorCodes:', '  # rule error-codes: the code of that refusal; add the code of each other kind of refusal (scope_denied, not_found, …)', `  unknown_tool: ${q(o.unknownTool.code)}`);
  } else if (o.unknownTool?.by === 'json-rpc-error') {
    lines.push(`# rule error-failure-shape: a call of a tool that does not exist (${NO_SUCH_TOOL}) was refused by a JSON-RPC error`, 'unknownTool: json-rpc-error');
  } else lines.push('# rule error-failure-shape: a call of a tool that does not exist was not refused in a form the kit knows: unknownTool not declared');
  if (o.sections) {
    lines.push('# rules section-types, update-section-text-field-address: the sectionVocabulary of the world answer', 'sections:');
    if (Object.keys(o.sections.types).length) lines.push('  types:', ...block(o.sections.types, '    '));
    if (Object.keys(o.sections.fields).length) lines.push('  fields:', ...block(o.sections.fields, '    '));
  } else lines.push('# rules section-types, update-section-text-field-address: the world answer named no sectionVocabulary: map yours under', '# sections, or adopt section-types if you use the kit\'s names');
  const parts = o.oauthMetadata ? [] : ['oauth'];
  if (o.missingTools.length || parts.length) {
    lines.push('notImplemented:');
    if (o.missingTools.length) lines.push(`  # rule tool-catalogue-exact: tools of §4.3 that tools/list (${o.listedTools} tools) does not name`, `  tools: [${o.missingTools.join(', ')}]`);
    if (parts.length) lines.push('  # rule protected-resource-metadata: the 401 of /api/mcp names no resource_metadata (§5.1 OAuth not built)', '  parts: [oauth]');
  } else lines.push(`# rules tool-catalogue-exact, protected-resource-metadata: tools/list names every tool of §4.3 and the 401 of /api/mcp`, '# names its protected-resource metadata: nothing under notImplemented');
  lines.push('# Not observed, yours to declare: errorObject, outputSchemas or outputFields, resourcesMirrorTools, publicSiteUrl, adopts.', '');
  return lines.join('\n');
}

export const EXPECTED_FAILURES_YAML = [
  '# The rules your server is known to fail, each with a reason (spec/schemas/expected-failures.schema.json), e.g.',
  '#   - rule: tool-catalogue-exact',
  '#     reason: list_domains ships in 1.3',
  '# A listed rule that fails is an expected failure; one that passes fails the run, so the list cannot go stale.',
  'expected: []',
  '',
].join('\n');
