// A single plain tools/call is answered by mount.ts directly instead of through the SDK's Server and transport
// (cheaper than the SDK's). The MCP semantics must not change: each call below is sent twice, once plain
// (the direct path) and once with an empty _meta in its params (which the direct path leaves to the SDK), and
// both answers must be the same status, content type and bytes. The transport's own refusals (Accept, Content-Type,
// protocol version) still come from the SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let token: string;
let websiteId: string;
let foreignWebsiteId: string;

beforeAll(async () => {
  test = await startTestServer('direct-path');
  ({ token, websiteId } = await ownerWithConnection(test, ['site:read', 'content:write']));
  const other = await test.fx.world({ users: [{ key: 'o' }], sites: [{ key: 's', members: { o: 'owner' } }] });
  foreignWebsiteId = other.sites.s!.websiteId;
});

afterAll(async () => {
  await test?.stop();
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(message: unknown, headers: Record<string, string> = HEADERS) {
  const res = await fetch(`${test.url}/api/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(message) });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

const call = (id: string | number, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('the direct tools/call path answers what the SDK answers', () => {
  const cases: [string, string | number, () => Record<string, unknown>][] = [
    ['a read with no arguments', 1, () => ({ name: 'list_sites' })],
    ['a read with empty arguments and a string id', 'call-7', () => ({ name: 'list_sites', arguments: {} })],
    ['a read of the target website', 2, () => ({ name: 'get_site_overview', arguments: { websiteId } })],
    ['another tenant\'s website (not_found)', 3, () => ({ name: 'get_site_overview', arguments: { websiteId: foreignWebsiteId } })],
    ['arguments outside the input schema (validation_failed)', 4, () => ({ name: 'list_sites', arguments: { bogus: true } })],
    ['a tool outside the catalogue', 5, () => ({ name: 'no_such_tool', arguments: {} })],
    ['a tool beyond the scopes (scope_denied)', 6, () => ({ name: 'list_connections', arguments: { websiteId } })],
  ];
  for (const [what, id, params] of cases) {
    it(what, async () => {
      const direct = await post(call(id, params()));
      const viaSdk = await post(call(id, { ...params(), _meta: {} }));
      expect(direct.status).toBe(200);
      expect(direct).toEqual(viaSdk);
      const answer = JSON.parse(direct.body) as { id: unknown; result: { content: { text: string }[]; structuredContent: unknown } };
      expect(answer.id).toBe(id);
      expect(JSON.parse(answer.result.content[0]!.text)).toEqual(answer.result.structuredContent);
    });
  }

  it('refuses what the SDK transport refuses (Accept, Content-Type, protocol version)', async () => {
    const plain = call(1, { name: 'list_sites' });
    const notAcceptable = await post(plain, { 'content-type': 'application/json', accept: 'application/json' });
    expect(notAcceptable.status).toBe(406);
    const wrongType = await post(plain, { 'content-type': 'text/plain', accept: HEADERS.accept });
    expect(wrongType.status).toBe(415);
    const unknownVersion = await post(plain, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(unknownVersion.status).toBe(400);
    expect(unknownVersion.body).toMatch(/Unsupported protocol version/);
    const known = await post(plain, { ...HEADERS, 'mcp-protocol-version': '2025-06-18' });
    expect(known.status).toBe(200);
  });

  it('leaves a message the SDK would refuse to the SDK (an extra top-level key, a fractional id)', async () => {
    const extraKey = await post({ ...call(1, { name: 'list_sites' }), extra: true });
    expect(extraKey.status).toBe(400);
    expect(JSON.parse(extraKey.body).error.code).toBe(-32700);
    const fractionalId = await post(call(1.5, { name: 'list_sites' }));
    expect(fractionalId.status).toBe(400);
  });
});
