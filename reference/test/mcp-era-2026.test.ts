// Both protocol eras at /api/mcp (rule mcp-eras-both): the SDK v2 client pinned to 2026-07-28 does the work
// of an agent with an API token (list_sites; prepare_publish → the owner approves through the fixtures protocol →
// confirm_pending_action), its 'auto' and 'legacy' modes still connect, and raw requests prove each wire rule of
// the 2026 era. The 2025 era's own answers are held by mcp-direct-path.test.ts, protocol-errors.test.ts and the
// Inspector tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let token: string;
let websiteId: string;
let ownerId: string;

beforeAll(async () => {
  test = await startTestServer('era-2026');
  const owner = await ownerWithConnection(test, ['site:read', 'content:write', 'publish']);
  ({ token, websiteId } = owner);
  ownerId = owner.world.users.owner!.userId;
});

afterAll(async () => {
  await test?.stop();
});

type Mode = 'legacy' | 'auto' | { pin: string };

async function connect(mode: Mode): Promise<Client> {
  const client = new Client({ name: 'era-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${test.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

function envelopeOf(result: unknown): { ok: boolean; data?: Record<string, unknown>; error?: { code: string } } {
  const { structuredContent, content } = result as CallToolResult;
  expect(JSON.parse((content[0] as { text: string }).text)).toEqual(structuredContent);
  return structuredContent as never;
}

describe('the SDK v2 client rule:mcp-eras-both', () => {
  it('pinned to 2026-07-28: list_sites, then prepare_publish, approval in the app, confirm_pending_action', async () => {
    const client = await connect({ pin: '2026-07-28' });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const sites = envelopeOf(await client.callTool({ name: 'list_sites', arguments: {} }));
      expect(sites.ok).toBe(true);
      expect((sites.data!.sites as { websiteId: string }[]).map((s) => s.websiteId)).toContain(websiteId);

      const prepared = envelopeOf(await client.callTool({ name: 'prepare_publish', arguments: { websiteId } }));
      expect(prepared.ok).toBe(true);
      const planId = prepared.data!.planId as string;
      const early = envelopeOf(await client.callTool({ name: 'confirm_pending_action', arguments: { planId } }));
      expect(early.error?.code).toBe('plan_not_approved');
      expect((await test.fx.decide(planId, ownerId, 'approve')).status).toBe('approved');
      const confirmed = envelopeOf(await client.callTool({ name: 'confirm_pending_action', arguments: { planId } }));
      expect(confirmed.ok).toBe(true);

      // The other methods of the era, through the same handlers as the 2025 era.
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_sites');
      expect((await client.listResources()).resources.length).toBe(4);
      expect((await client.listPrompts()).prompts.length).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('in auto mode negotiates 2026-07-28, in legacy mode initializes as a 2025 client does', async () => {
    for (const [mode, version] of [['auto', '2026-07-28'], ['legacy', '2025-11-25']] as const) {
      const client = await connect(mode);
      try {
        expect(client.getNegotiatedProtocolVersion(), mode).toBe(version);
        expect(envelopeOf(await client.callTool({ name: 'list_sites', arguments: {} })).ok, mode).toBe(true);
      } finally {
        await client.close();
      }
    }
  });
});

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'site-mcp-reference', version: '0.1.0' } };

interface Answer {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

/** A 2026-era POST: the standard headers mirror the body unless `headers` says otherwise (a null drops one). */
async function post(method: string, params: Record<string, unknown> = {}, headers: Record<string, string | null> = {}, meta: Record<string, unknown> = META): Promise<Answer> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': String(meta['io.modelcontextprotocol/protocolVersion']),
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
  const res = await fetch(`${test.url}/api/mcp`, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } }) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

describe('the 2026-07-28 wire, raw', () => {
  it('rule:mcp-2026-discover rule:mcp-2026-result-type rule:mcp-2026-server-info: server/discover with no earlier exchange', async () => {
    const { status, body } = await post('server/discover');
    expect(status).toBe(200);
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({
      supportedVersions: [VERSION],
      capabilities: { tools: {}, resources: {}, prompts: {} },
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    expect(typeof body.result!.instructions).toBe('string');
  });

  it('rule:mcp-2026-result-type rule:mcp-2026-server-info rule:mcp-2026-cache-hints: every result, and the hints of lists and reads', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown> | undefined][] = [
      ['tools/list', {}, { ttlMs: 300_000, cacheScope: 'public' }],
      ['prompts/list', {}, { ttlMs: 300_000, cacheScope: 'public' }],
      ['resources/list', {}, { ttlMs: 300_000, cacheScope: 'public' }],
      ['resources/templates/list', {}, { ttlMs: 300_000, cacheScope: 'public' }],
      ['resources/read', { uri: 'svc://site/overview' }, { ttlMs: 0, cacheScope: 'private' }],
      ['server/discover', {}, { ttlMs: 300_000, cacheScope: 'public' }],
      ['tools/call', { name: 'list_sites', arguments: {} }, undefined],
      ['prompts/get', { name: 'prep_for_launch', arguments: {} }, undefined],
    ];
    for (const [method, params, hints] of cases) {
      const { status, body } = await post(method, params);
      expect(status, method).toBe(200);
      expect(body.error, method).toBeUndefined();
      expect(body.result, method).toMatchObject({ resultType: 'complete', _meta: SERVER_INFO, ...hints });
      if (!hints) expect(body.result!.ttlMs, method).toBeUndefined();
    }
  });

  it('rule:mcp-2026-unsupported-version: a revision not spoken is -32022 on 400 with the ones spoken', async () => {
    const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const { status, body } = await post('tools/list', {}, {}, meta);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32022, data: { supported: [VERSION], requested: '2099-01-01' } });
  });

  it('rule:mcp-2026-header-mismatch: a missing or disagreeing Mcp-Method, Mcp-Name or MCP-Protocol-Version is -32020 on 400', async () => {
    const call = { name: 'list_sites', arguments: {} };
    const cases: [string, string, Record<string, unknown>, Record<string, string | null>][] = [
      ['Mcp-Method names another method', 'tools/call', call, { 'mcp-method': 'tools/list' }],
      ['Mcp-Method missing', 'tools/list', {}, { 'mcp-method': null }],
      ['Mcp-Name names another tool', 'tools/call', call, { 'mcp-name': 'delete_everything' }],
      ['Mcp-Name missing', 'tools/call', call, { 'mcp-name': null }],
      ['Mcp-Name names another resource', 'resources/read', { uri: 'svc://site/overview' }, { 'mcp-name': 'svc://site/pages' }],
      ['MCP-Protocol-Version disagrees with _meta', 'tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }],
      ['MCP-Protocol-Version missing', 'tools/list', {}, { 'mcp-protocol-version': null }],
    ];
    for (const [what, method, params, headers] of cases) {
      const { status, body } = await post(method, params, headers);
      expect(status, what).toBe(400);
      expect(body.error?.code, what).toBe(-32020);
    }
    // An Mcp-Name in its Base64 form is the same name.
    const encoded = `=?base64?${Buffer.from('list_sites').toString('base64')}?=`;
    expect((await post('tools/call', call, { 'mcp-name': encoded })).status).toBe(200);
  });

  it('rule:mcp-2026-resource-not-found: an unknown resource is -32602 with its uri', async () => {
    const { status, body } = await post('resources/read', { uri: 'svc://no-such-resource' });
    expect(status).toBe(200);
    expect(body.error).toMatchObject({ code: -32602, data: { uri: 'svc://no-such-resource' } });
  });

  it('has no initialize and no unknown method: -32601 on 404; a malformed envelope is -32602 on 400', async () => {
    const initialize = await post('initialize', { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(initialize.status).toBe(404);
    expect(initialize.body.error?.code).toBe(-32601);
    const noCapabilities = await post('tools/list', {}, {}, { 'io.modelcontextprotocol/protocolVersion': VERSION });
    expect(noCapabilities.status).toBe(400);
    expect(noCapabilities.body.error?.code).toBe(-32602);
    // The era has no batches: a batch holding one of its requests is an Invalid Request.
    const batch = await fetch(`${test.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }]),
    });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as Answer['body']).error?.code).toBe(-32600);
  });

  it('bounds a tool\'s arguments before anything walks them, as in the 2025 era (rule tool-arguments-bounded)', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const { status, body } = await post('tools/call', { name: 'list_sites', arguments: deep });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ isError: true, resultType: 'complete', structuredContent: { ok: false, error: { code: 'validation_failed' } } });
  });

  it('a tool call is the same envelope in both eras', async () => {
    const modern = await post('tools/call', { name: 'get_site_overview', arguments: { websiteId } });
    const res = await fetch(`${test.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_site_overview', arguments: { websiteId } } }),
    });
    const legacy = (await res.json()) as Answer['body'];
    const { resultType, _meta, ...rest } = modern.body.result!;
    expect([resultType, _meta]).toEqual(['complete', SERVER_INFO]);
    expect(legacy.result).not.toHaveProperty('resultType');
    expect(rest).toEqual(legacy.result);
  });
});
