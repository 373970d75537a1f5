// rule:never-a-server-error, rule:error-failure-shape, rule:tool-result-envelope — a seeded fuzz over HTTP of
// every tool the target lists, with arguments derived from the tool's own published inputSchema: half that fit
// it, half malformed (missing or mistyped properties, hostile strings, unknown and prototype-polluting keys,
// deep nesting, no object at all). Every answer must be a tool-result envelope that passes the generic checks,
// or, for arguments that are not an object, a JSON-RPC client error; never an HTTP 5xx, never -32603. After the
// fuzz the target still takes a normal write.
// Bounded: SITE_MCP_FUZZ_RUNS calls per tool (default 200 in `npm test`; `npm run fuzz` runs 4,000).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadJson } from '../../spec/index.js';
import { CLIENT_ERRORS, runChecks } from '../lib/checks.js';
import { jsonRpcMessages, rawMcpPost } from '../lib/mcp-client.js';
import { malformed, valid, type JsonSchema } from '../lib/schema-arbitrary.js';
import { connect, params, url, worldWithSite } from './harness.js';

const RUNS = Number(process.env.SITE_MCP_FUZZ_RUNS ?? 200);
/** Calls per connection before a fresh tenant is made, to stay under the §8 rate limits (120/600 a minute). */
const CALLS_PER_TENANT = 100;
const allScopes = loadJson<{ scopes: { name: string }[] }>('scopes.json').scopes.map((s) => s.name);

async function freshTenant() {
  const { fx, site, owner } = await worldWithSite();
  const c = await connect(fx, owner.userId, site.websiteId, allScopes);
  return { ...c, websiteId: site.websiteId, calls: 0 };
}

describe('fuzz', () => {
  it(`rule:never-a-server-error rule:error-failure-shape — ${RUNS} schema-derived and malformed calls per tool answer an envelope or a client error`, async () => {
    let tenant = await freshTenant();
    const { tools } = await tenant.mcp.listTools();
    expect(tools.length).toBeGreaterThan(0);
    let id = 0;
    for (const tool of tools) {
      const schema = tool.inputSchema as JsonSchema;
      await fc.assert(
        fc.asyncProperty(fc.oneof(valid(schema), malformed(schema)), async (args) => {
          if (tenant.calls++ >= CALLS_PER_TENANT) {
            await tenant.mcp.close();
            tenant = await freshTenant();
            tenant.calls = 1;
          }
          const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool.name, arguments: args } });
          const answer = await rawMcpPost(url(), body, { authorization: `Bearer ${tenant.token}` });
          const where = `${tool.name}(${body.slice(0, 300)})`;
          expect(answer.status, `${where}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
          const message = jsonRpcMessages(answer)[0] as { result?: unknown; error?: { code: number; message: string } } | undefined;
          expect(message, `${where}: no JSON-RPC message in ${answer.text.slice(0, 300)}`).toBeDefined();
          const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
          if (message!.error) {
            // Only arguments that are no object at all may be refused at the protocol level, and only as a client error.
            expect(isObject, `${where}: a tool call with object arguments answered JSON-RPC error ${JSON.stringify(message!.error)} instead of an envelope`).toBe(false);
            expect(CLIENT_ERRORS.has(message!.error.code), `${where}: JSON-RPC error ${message!.error.code} is not a client error`).toBe(true);
            return;
          }
          runChecks({ tool: tool.name, args: isObject ? (args as Record<string, unknown>) : undefined, result: message!.result as never });
        }),
        params(RUNS),
      );
    }
    // Still healthy: an ordinary write goes through.
    await tenant.mcp.close();
    tenant = await freshTenant();
    const { envelope } = await tenant.mcp.callTool('update_business_name', { websiteId: tenant.websiteId, businessName: 'After the fuzz' });
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    await tenant.mcp.close();
  }, 600_000);
});
