// Hostile tool arguments against the real server over HTTP (rules tool-arguments-bounded,
// never-a-server-error, activity-logs-validation-failures): too deep or too large arguments are a logged
// validation failure, answered before anything walks or stores them; a deeply nested import can never make
// the workspace's later writes fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { rawMcpPost, type McpConnection } from '../../conformance/lib/mcp-client.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
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
  test = await startTestServer('hostile');
  ({ mcp, token, connectionId, websiteId } = await ownerWithConnection(test, ['site:read', 'content:write', 'settings:write'], { plan: 'agency' }, 'workspace'));
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
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
    const answer = await rawMcpPost(test.url, body, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    const message = answer.json as { id: number; result: { isError: boolean; structuredContent: { ok: boolean; error: { code: string } } } };
    expect(message.id).toBe(7);
    expect(message.result.isError).toBe(true);
    expect(message.result.structuredContent.error.code).toBe('validation_failed');
    const { entries } = await test.fx.activity(connectionId);
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
