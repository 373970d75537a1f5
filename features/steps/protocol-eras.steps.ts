// Steps of features/protocol-eras.feature: raw requests of the 2026-07-28 era (the revision in params._meta and
// the standard headers, as the SDK v2 client sends them: conformance/lib/protocol-eras.ts), what their JSON-RPC
// answers carry, and one connection's catalogue and calls compared across the eras (rule mcp-eras-both).
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { McpConnection, isProtocolEra, type ProtocolEra } from '../../conformance/lib/mcp-client.js';
import { MODERN_ERA, firstMessage, modernRequest, postToMcp } from '../../conformance/lib/protocol-eras.js';
import type { SiteWorld } from '../support/world.js';
import { parse, pointer } from '../support/json.js';

/** The JSON-RPC error of the last resource read that expected a refusal; a raw request's answer is in lastHttp. */
const readError = new WeakMap<SiteWorld, { code: number; message: string; data?: unknown }>();

async function send(world: SiteWorld, name: string, method: string, params: Record<string, unknown>, version = MODERN_ERA, headers: Record<string, string | null> = {}): Promise<void> {
  const request = modernRequest(method, params, version);
  const sent: Record<string, string> = { ...request.headers, authorization: `Bearer ${world.connection(name).token}` };
  for (const [header, value] of Object.entries(headers)) {
    if (value === null) delete sent[header.toLowerCase()];
    else sent[header.toLowerCase()] = value;
  }
  readError.delete(world);
  world.lastHttp = await postToMcp(world.url, request.body, sent);
}

const paramsOf = (world: SiteWorld, doc: string) => JSON.parse(world.resolve(doc).trim() || '{}') as Record<string, unknown>;

When('{string} sends the 2026-07-28 request {string}', async function (this: SiteWorld, name: string, method: string) {
  await send(this, name, method, {});
});

When('{string} sends the 2026-07-28 request {string} with params:', async function (this: SiteWorld, name: string, method: string, doc: string) {
  await send(this, name, method, paramsOf(this, doc));
});

When('{string} sends the request {string} naming the protocol revision {string}', async function (this: SiteWorld, name: string, method: string, version: string) {
  await send(this, name, method, {}, version);
});

// An empty value leaves the header out (a 2026 request must carry it: rule mcp-2026-header-mismatch).
When('{string} sends the 2026-07-28 request {string} with the header {string} as {string} and params:', async function (this: SiteWorld, name: string, method: string, header: string, value: string, doc: string) {
  await send(this, name, method, paramsOf(this, doc), MODERN_ERA, { [header]: value === '' ? null : value });
});

When('{string} reads the resource {string} expecting a refusal', async function (this: SiteWorld, name: string, uri: string) {
  const error = await this.connection(name).mcp.readResourceError(this.resolve(uri));
  assert.ok(error, `resources/read ${uri} answered contents, not a JSON-RPC error`);
  readError.set(this, error);
});

function result(world: SiteWorld): Record<string, unknown> {
  assert.ok(world.lastHttp, 'no request was sent yet in this scenario');
  const message = firstMessage(world.lastHttp);
  assert.ok(message?.result && typeof message.result === 'object', `HTTP ${world.lastHttp.status} without a JSON-RPC result: ${world.lastHttp.text.slice(0, 300)}`);
  return message.result as Record<string, unknown>;
}

function rpcError(world: SiteWorld): { code?: unknown; data?: unknown } {
  const read = readError.get(world);
  if (read) return read;
  assert.ok(world.lastHttp, 'no request was sent yet in this scenario');
  const message = firstMessage(world.lastHttp);
  assert.ok(message?.error && typeof message.error === 'object', `HTTP ${world.lastHttp.status} without a JSON-RPC error: ${world.lastHttp.text.slice(0, 300)}`);
  return message.error as { code?: unknown; data?: unknown };
}

Then('the JSON-RPC result at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(result(this), path), this.resolve(expected), JSON.stringify(result(this)).slice(0, 300));
});

Then('the JSON-RPC result at {string} equals {int}', function (this: SiteWorld, path: string, expected: number) {
  assert.equal(pointer(result(this), path), expected, JSON.stringify(result(this)).slice(0, 300));
});

Then('the JSON-RPC result at {string} lists {string}', function (this: SiteWorld, path: string, item: string) {
  const value = pointer(result(this), path);
  assert.ok(Array.isArray(value) && value.includes(parse(item)), `${path} is ${JSON.stringify(value)}`);
});

Then('the JSON-RPC result at {string} is an object', function (this: SiteWorld, path: string) {
  const value = pointer(result(this), path);
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${path} is ${JSON.stringify(value)}`);
});

Then('the JSON-RPC result at {string} is a non-empty string', function (this: SiteWorld, path: string) {
  const value = pointer(result(this), path);
  assert.ok(typeof value === 'string' && value.length > 0, `${path} is ${JSON.stringify(value)}`);
});

Then('the JSON-RPC error code is {int}', function (this: SiteWorld, code: number) {
  const error = rpcError(this);
  assert.equal(error.code, code, JSON.stringify(error).slice(0, 300));
});

Then('the JSON-RPC error at {string} lists {string}', function (this: SiteWorld, path: string, item: string) {
  const value = pointer(rpcError(this), path);
  assert.ok(Array.isArray(value) && value.includes(parse(item)), `${path} is ${JSON.stringify(value)}`);
});

Then('the JSON-RPC error at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(rpcError(this), path), this.resolve(expected), JSON.stringify(rpcError(this)).slice(0, 300));
});

/** `name`'s connection speaking `era`, whatever era the run speaks, closed after `use`. */
async function inEra<T>(world: SiteWorld, name: string, era: string, use: (mcp: McpConnection) => Promise<T>): Promise<T> {
  assert.ok(isProtocolEra(era), `the kit speaks no era ${era}`);
  const mcp = new McpConnection(world.url, world.connection(name).token, {}, era as ProtocolEra);
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}

const names = (items: { name?: string; uri?: string }[]) => items.map((i) => i.name ?? i.uri).sort();

Then('{string} lists the same tools, resources and prompts in the eras {string} and {string}', async function (this: SiteWorld, name: string, a: string, b: string) {
  const catalogue = (era: string) =>
    inEra(this, name, era, async (mcp) => ({ tools: names((await mcp.listTools()).tools), resources: names((await mcp.listResources()).resources), prompts: names((await mcp.listPrompts()).prompts) }));
  assert.deepEqual(await catalogue(b), await catalogue(a));
});

Then('{string} calling {string} gets the same answer in the eras {string} and {string}', async function (this: SiteWorld, name: string, tool: string, a: string, b: string) {
  const call = (era: string) => inEra(this, name, era, async (mcp) => (await mcp.callTool(tool)).envelope);
  const first = await call(a);
  assert.equal(first.ok, true, `${tool} in ${a}: ${JSON.stringify(first).slice(0, 300)}`);
  assert.deepEqual(await call(b), first);
});
