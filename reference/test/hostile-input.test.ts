// Hostile tool arguments against the real server over HTTP (rules tool-arguments-bounded,
// never-a-server-error, activity-logs-validation-failures): too deep or too large arguments are a logged
// validation failure, answered before anything walks or stores them; a deeply nested import can never make
// the workspace's later writes fail.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { limits } from '../runtime.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection, rawMcpPost } from '../../conformance/lib/mcp-client.js';

let server: RunningServer;
let dir: string;
let fx: FixturesClient;
let mcp: McpConnection;
let token: string;
let connectionId: string;
let websiteId: string;

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-hostile-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, fixturesSecret: 'test-secret', allowedHosts: [] });
  fx = new FixturesClient(server.url, 'test-secret');
  const world = await fx.world({ plan: 'agency', users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  websiteId = world.sites.main!.websiteId;
  ({ token, connectionId } = await fx.connection({ userId: world.users.owner!.userId, websiteId, reach: 'workspace', scopes: ['site:read', 'content:write', 'settings:write'] }));
  mcp = new McpConnection(server.url, token);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('hostile arguments', () => {
  it('rule:tool-arguments-bounded — arguments nested past the bound are a validation failure', async () => {
    const { envelope } = await mcp.callTool('update_business_name', { websiteId, businessName: 'x', extra: nested(limits.toolArguments.maxDepth + 5) } as Record<string, unknown>);
    expect(envelope.ok).toBe(false);
    expect(envelope.error?.code).toBe('validation_failed');
    expect(envelope.error?.message).toMatch(/levels deep/);
  });

  it('rule:tool-arguments-bounded rule:activity-logs-validation-failures — arguments with more values than the bound get an envelope, logged, not a JSON-RPC error', async () => {
    const keys = Array.from({ length: limits.toolArguments.maxNodes + 10 }, (_, i) => `"k${i}":1`).join(',');
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"import_site","arguments":{${keys}}}}`;
    const answer = await rawMcpPost(server.url, body, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    const message = answer.json as { id: number; result: { isError: boolean; structuredContent: { ok: boolean; error: { code: string } } } };
    expect(message.id).toBe(7);
    expect(message.result.isError).toBe(true);
    expect(message.result.structuredContent.error.code).toBe('validation_failed');
    const { entries } = await fx.activity(connectionId);
    expect(entries.some((e) => e.name === 'import_site' && e.outcome === 'invalid')).toBe(true);
  });

  it('rule:tool-arguments-bounded — a collection item nested 2,500 deep never makes later writes of the workspace fail', async () => {
    const snapshot = {
      format: 'PortableSiteV1',
      site: { name: 'Deep' },
      pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Deep' } }] }],
      collections: [{ key: 'c', name: 'C', items: [nested(2_500)] }],
    };
    const imported = await mcp.callTool('import_site', { snapshot });
    expect(imported.envelope.ok).toBe(false);
    expect(imported.envelope.error?.code).toBe('validation_failed');
    const write = await mcp.callTool('update_business_name', { websiteId, businessName: 'Still writable' });
    expect(write.envelope.ok, JSON.stringify(write.envelope)).toBe(true);
  });
});
