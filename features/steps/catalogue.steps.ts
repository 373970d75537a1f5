// Steps that read what a server advertises: tools/list, resources and prompts.
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Given, Then } from '@cucumber/cucumber';
import { jsonRpcMessages, rawMcpPost, type McpConnection } from '../../conformance/lib/mcp-client.js';
import { loadJson, loadTools } from '../../spec/index.js';
import type { SiteWorld } from '../support/world.js';
import { idsArranged } from '../support/located.js';
import { stringsIn } from '../support/json.js';
import { activeDeclaration, adopts, declaredErrorCode, declaredNotImplemented, NotDeclared, NotImplemented } from '../../conformance/lib/declaration.js';

const RESOURCES = loadJson<{ resources: { uri: string; tool: string }[] }>('resources.json').resources;

function anyConnection(world: SiteWorld): McpConnection {
  const first = [...world.connections.values()][0];
  if (!first) throw new Error('this step needs a connection');
  return first.mcp;
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean).sort();

// ── resources ────────────────────────────────────────────────────────────────────────────────────────────

Then('the resources are exactly {string}', async function (this: SiteWorld, uris: string) {
  const { resources } = await anyConnection(this).listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), list(uris));
});

// Each resource mirrors a site:read tool (spec/resources.json): reading it answers what the tool answers.
Then('every resource of {string} answers what its tool answers', async function (this: SiteWorld, name: string) {
  const mcp = this.connection(name).mcp;
  const { resources } = await mcp.listResources();
  assert.ok(resources.length > 0, 'no resources listed');
  for (const { uri } of resources) {
    const spec = RESOURCES.find((r) => r.uri === uri);
    assert.ok(spec, `${uri} is not a resource of spec/resources.json`);
    const { result, envelope } = await mcp.readResource(uri);
    // §4.4: a read-only resource of the default site. That it mirrors a tool's envelope is our choice; that it
    // reads the same site as its tool, the source's: every id of the scenario's worlds that the tool's answer
    // names (the site's, its pages') is in the resource too.
    assert.ok(result.contents.length > 0, `${uri} has no contents`);
    if (!activeDeclaration()?.resourcesMirrorTools) {
      const text = contentsText(result.contents);
      const { envelope: viaTool } = await mcp.callTool(spec.tool, {});
      const ids = idsArranged(this);
      const named = [...stringsIn(viaTool.ok ? viaTool.data : undefined, 2000)].filter((value) => ids.has(value));
      const missing = named.filter((id) => !text.includes(id));
      assert.deepEqual(missing, [], `${uri} does not name what ${spec.tool} names of the same site: ${missing.join(', ')}`);
      this.choiceNotDeclared('resources answer what their tools answer (resourcesMirrorTools)');
      continue;
    }
    assert.ok(envelope, `${uri} is not the JSON envelope`);
    assert.equal(envelope.ok, true, `${uri}: ${JSON.stringify(envelope.error)}`);
    const { envelope: viaTool } = await mcp.callTool(spec.tool, {});
    assert.deepEqual(envelope, viaTool, `${uri} differs from ${spec.tool}`);
  }
});

Then('the resource {string} of {string} shows website {string}', async function (this: SiteWorld, uri: string, name: string, websiteId: string) {
  const { result, envelope } = await this.connection(name).mcp.readResource(uri);
  const site = this.resolve(websiteId);
  // §4.4: resources read the connection's default site; the envelope and its websiteId field are our shape. By
  // value: the contents name that site's id and no other website id of the scenario.
  if (!activeDeclaration()?.resourcesMirrorTools) {
    const text = contentsText(result.contents);
    const others = [...new Set(this.worlds.flatMap((w) => Object.values(w.sites).map((s) => s?.websiteId)))].filter((id): id is string => Boolean(id) && id !== site && text.includes(id!));
    assert.deepEqual(others, [], `${uri} names other websites than the default one: ${others.join(', ')}`);
    if (!text.includes(site)) this.notChecked(`which website ${uri} reads (it names no website id of the scenario)`);
    return;
  }
  assert.equal(envelope?.ok, true, JSON.stringify(envelope));
  assert.equal(envelope!.data.websiteId, site);
});

/** The text of a resource's contents, all of them. */
function contentsText(contents: readonly object[]): string {
  return contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('\n');
}

// Refused either as a JSON-RPC error or as a refusal envelope in the contents; the code only when declared.
Then('the resource {string} of {string} is refused with {string}', async function (this: SiteWorld, uri: string, name: string, kind: string) {
  let envelope;
  try {
    ({ envelope } = await this.connection(name).mcp.readResource(uri));
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    if (activeDeclaration()?.resourcesMirrorTools) assert.fail(`${uri}: declared to answer an envelope like its tool, answered JSON-RPC error ${error.code}`);
    return this.choiceNotDeclared(`the error code for ${kind} (errorCodes.${kind})`);
  }
  assert.equal(envelope?.ok, false, `${uri} was read: ${JSON.stringify(envelope).slice(0, 200)}`);
  const code = declaredErrorCode(kind);
  if (code) assert.equal(envelope!.error!.code, code);
  else this.choiceNotDeclared(`the error code for ${kind} (errorCodes.${kind})`);
});

// ── prompts ──────────────────────────────────────────────────────────────────────────────────────────────

Then('the prompts are exactly {string}', async function (this: SiteWorld, names: string) {
  const { prompts } = await anyConnection(this).listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), list(names));
});

Then('every prompt of {string} returns guidance that uses its arguments', async function (this: SiteWorld, name: string) {
  const mcp = this.connection(name).mcp;
  const { prompts } = await mcp.listPrompts();
  assert.ok(prompts.length > 0, 'no prompts listed');
  for (const prompt of prompts) {
    const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, `${a.name}-${this.randomWord(6)}`]));
    const result = await mcp.getPrompt(prompt.name, args);
    const text = result.messages.map((m) => (m.content as { text?: string }).text ?? '').join('\n');
    assert.ok(text.length > 40, `${prompt.name} carries no guidance text`);
    for (const value of Object.values(args)) assert.ok(text.includes(value), `${prompt.name} ignores its argument ${value}`);
  }
});

// ── the target's own vocabulary ──────────────────────────────────────────────────────────────────────────

/**
 * The lead statuses a crm_update input schema names, found by meaning: §2.5 gives followUpAt to leads alone, so the
 * changes object whose properties hold followUpAt is a lead's, whatever the schema's shape (one branch per record
 * type, or the changes of each type side by side), and its status enum the lead statuses the target takes.
 */
export function leadStatuses(schema: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const props = (node as { properties?: Record<string, { enum?: unknown[] }> }).properties;
    if (props?.followUpAt && Array.isArray(props.status?.enum)) for (const v of props.status.enum) if (typeof v === 'string') found.add(v);
    Object.values(node).forEach(walk);
  };
  walk(schema);
  return [...found];
}

// §2.5 shows which fields crm_update writes but not their values: a lead status the target itself takes, from its
// declaration (adopting ours) or its own crm_update input schema; otherwise the scenario is not checked.
Given('a lead status the target takes is remembered as {string}', async function (this: SiteWorld, key: string) {
  if (adopts('crm-status-values')) return void this.remembered.set(key, 'contacted');
  const { tools } = await anyConnection(this).listTools();
  const statuses = leadStatuses(tools.find((t) => t.name === 'crm_update')?.inputSchema);
  if (!statuses.length) throw new NotDeclared("a lead status the target takes (its crm_update input schema names none for a lead; or adopt crm-status-values)");
  // Not the first: a new lead most likely holds it already, and a change to the same value shows nothing.
  this.remembered.set(key, statuses[1] ?? statuses[0]!);
});

/**
 * A layout token the target's set_section_layout input schema offers, found by meaning: the first property of its
 * `layout` object that lists allowed values (an enum of texts), with one of them. §2.4 says layout takes bounded
 * tokens but shows none; a target's own schema names its own. Local $refs ("#/…") are followed.
 */
export function offeredLayout(schema: unknown): Record<string, string> | undefined {
  const root = schema as Record<string, unknown> | undefined;
  const follow = (node: unknown, hops = 0): Record<string, unknown> | undefined => {
    const ref = (node as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/') || hops > 8) return node as Record<string, unknown> | undefined;
    return follow(ref.slice(2).split('/').reduce<unknown>((n, k) => (n as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], root), hops + 1);
  };
  const layout = follow((follow(root)?.properties as Record<string, unknown> | undefined)?.layout);
  const candidates = [layout, ...(((layout?.anyOf ?? layout?.oneOf ?? layout?.allOf) as unknown[] | undefined) ?? []).map((n) => follow(n))];
  for (const node of candidates) {
    for (const [name, property] of Object.entries((node?.properties as Record<string, unknown> | undefined) ?? {})) {
      const values = (follow(property)?.enum as unknown[] | undefined)?.filter((v): v is string => typeof v === 'string');
      if (values?.length) return { [name]: values[values.length > 1 ? 1 : 0]! };
    }
  }
  return undefined;
}

// §2.4: layout takes bounded tokens; which ones is not shown. A layout of the target's own tokens, as JSON, from its
// set_section_layout schema (or ours when it adopts layout-token-values); otherwise the rest is not checked.
Given('a layout the target\'s set_section_layout schema offers is remembered as {string}', async function (this: SiteWorld, key: string) {
  if (adopts('layout-token-values')) return void this.remembered.set(key, JSON.stringify({ width: 'wide' }));
  const { tools } = await anyConnection(this).listTools();
  const layout = offeredLayout(tools.find((t) => t.name === 'set_section_layout')?.inputSchema);
  if (!layout) throw new NotDeclared('a layout token the target takes (its set_section_layout input schema lists no allowed values under layout; or adopt layout-token-values)');
  this.remembered.set(key, JSON.stringify(layout));
});

// ── tools/list ───────────────────────────────────────────────────────────────────────────────────────────

Then('the tools listed are exactly the catalogue of §4.3', async function (this: SiteWorld) {
  const { tools } = await anyConnection(this).listTools();
  const listed = new Set(tools.map((t) => t.name));
  const catalogue = new Set(loadTools().map((t) => t.name));
  // A tool the declaration says is not built yet is not counted missing, and reported as not checked.
  const notBuilt = [...catalogue].filter((n) => !listed.has(n) && declaredNotImplemented('tools', n));
  if (notBuilt.length) this.notChecked(`not implemented: tools ${notBuilt.join(', ')} (notImplemented in the declaration)`);
  assert.deepEqual({ missing: [...catalogue].filter((n) => !listed.has(n) && !notBuilt.includes(n)).sort(), extra: [...listed].filter((n) => !catalogue.has(n)).sort() }, { missing: [], extra: [] });
});

// §9.2: the tools of the scopes named there exist from a date (rule tools-since): each is in tools/list and a call
// of it answers an envelope (callTool's generic checks fail a JSON-RPC error or a 5xx for a catalogue tool).
Then('the tools of the scopes {string} are listed and answer calls, as they exist since {string}', async function (this: SiteWorld, scopes: string, since: string) {
  if (Date.now() < Date.parse(since)) return this.notChecked(`the tools that exist only from ${since}`);
  const wanted = new Set(list(scopes));
  const all = loadTools().filter((t) => t.scopes.some((s) => wanted.has(s))).map((t) => t.name).sort();
  assert.ok(all.length > 0, `no catalogue tool needs ${scopes}`);
  const notBuilt = all.filter((n) => declaredNotImplemented('tools', n));
  const expected = all.filter((n) => !notBuilt.includes(n));
  if (!expected.length) throw new NotImplemented(`tools ${notBuilt.join(', ')} (notImplemented in the declaration)`);
  if (notBuilt.length) this.notChecked(`not implemented: tools ${notBuilt.join(', ')} (notImplemented in the declaration)`);
  const connection = anyConnection(this);
  const listed = new Set((await connection.listTools()).tools.map((t) => t.name));
  assert.deepEqual(expected.filter((n) => !listed.has(n)), [], `tools of ${scopes} missing from tools/list`);
  for (const name of expected) {
    const { envelope } = await connection.callTool(name, {});
    assert.ok(!envelope.protocolError, `${name} was refused as an unknown tool: ${JSON.stringify(envelope.protocolError)}`);
  }
});

Then('no tool name matches {string}', async function (this: SiteWorld, pattern: string) {
  const { tools } = await anyConnection(this).listTools();
  assert.ok(tools.length > 0, 'tools/list is empty');
  const re = new RegExp(pattern);
  assert.deepEqual(tools.map((t) => t.name).filter((n) => re.test(n)), []);
});

Then('no tool input has a property matching {string}', async function (this: SiteWorld, pattern: string) {
  const { tools } = await anyConnection(this).listTools();
  const re = new RegExp(pattern, 'i');
  const offending: string[] = [];
  const visit = (name: string, schema: unknown, path: string): void => {
    if (!schema || typeof schema !== 'object') return;
    const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
    for (const [key, sub] of Object.entries(props)) {
      if (re.test(key)) offending.push(`${name}${path}.${key}`);
      visit(name, sub, `${path}.${key}`);
    }
    for (const k of ['oneOf', 'anyOf', 'allOf', 'items', 'additionalProperties', 'then', 'else']) {
      const v = (schema as Record<string, unknown>)[k];
      for (const sub of Array.isArray(v) ? v : v ? [v] : []) visit(name, sub, path);
    }
  };
  for (const t of tools) visit(t.name, t.inputSchema, '');
  assert.deepEqual(offending, []);
});

Then('every tool input schema in tools\\/list is a plain object', async function (this: SiteWorld) {
  const { tools } = await anyConnection(this).listTools();
  const offending = tools
    .filter((t) => {
      const s = t.inputSchema as Record<string, unknown>;
      return s.type !== 'object' || typeof s.properties !== 'object' || ['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not'].some((k) => k in s);
    })
    .map((t) => t.name);
  assert.deepEqual(offending, [], 'input schemas must be plain objects with root properties and no root combinators or conditionals');
});

// Rule tools-list-single-type-schemas: a nullable value is anyOf a type and null, never type: [T, "null"].
Then('no schema in tools\\/list gives a value a list of types', async function (this: SiteWorld) {
  const { tools } = await anyConnection(this).listTools();
  const unions: string[] = [];
  const walk = (node: unknown, path: string, depth: number): void => {
    if (depth > 64 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`, depth + 1));
    if (Array.isArray((node as { type?: unknown }).type)) unions.push(path);
    // enum, const, default and examples hold values, not schemas.
    for (const [key, value] of Object.entries(node)) if (!['enum', 'const', 'default', 'examples', 'required'].includes(key)) walk(value, `${path}.${key}`, depth + 1);
  };
  for (const tool of tools) {
    walk(tool.inputSchema, `${tool.name}.inputSchema`, 0);
    walk(tool.outputSchema, `${tool.name}.outputSchema`, 0);
  }
  assert.deepEqual(unions, [], 'schemas that give a value a list of types');
});

// Rule tools-list-no-output-schema (the output schemas would not fit the tools/list size budget).
Then('no tool in tools\\/list declares an outputSchema', async function (this: SiteWorld) {
  const { tools } = await anyConnection(this).listTools();
  assert.deepEqual(tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name), [], 'tools that declare an outputSchema');
});

Then('the serialized tools\\/list result of {string} is at most {int} characters', async function (this: SiteWorld, name: string, max: number) {
  // Measured over the wire: the result of a raw tools/list exactly as the server serialized it.
  const answer = await rawMcpPost(this.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { authorization: `Bearer ${this.connection(name).token}` });
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  const message = jsonRpcMessages(answer)[0] as { result?: { tools?: unknown[] } } | undefined;
  assert.ok(message?.result?.tools?.length, `tools/list answered no tools: ${answer.text.slice(0, 300)}`);
  const size = JSON.stringify(message.result).length;
  this.attach(`tools/list: ${size} characters (${message.result.tools.length} tools; HTTP body ${answer.text.length})`);
  assert.ok(size <= max, `tools/list is ${size} characters`);
});
