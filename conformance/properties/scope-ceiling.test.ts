// rule:scope-ceiling, over HTTP: a random scope set × every tool of the catalogue. A call is answered
// scope_denied exactly when the connection lacks a scope the catalogue names for the tool.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadJson, loadTools } from '../../spec/index.js';
import { connect, params, worldWithSite } from './harness.js';

const scopes = loadJson<{ scopes: { name: string; default: string; implies: string[] }[] }>('scopes.json').scopes;
const grantable = scopes.filter((s) => s.default !== 'always').map((s) => s.name);
const implied = (granted: string[]) => new Set(granted.flatMap((g) => [g, ...(scopes.find((s) => s.name === g)?.implies ?? [])]));

describe('scope ceiling', () => {
  it('rule:scope-ceiling rule:scope-site-read-always-on — allowed iff the catalogue says so, for every tool', async () => {
    const tools = loadTools();
    await fc.assert(
      fc.asyncProperty(fc.subarray(grantable), async (granted) => {
        const { fx, site, owner } = await worldWithSite();
        const c = await connect(fx, owner.userId, site.websiteId, granted);
        const held = implied([...granted, 'site:read']);
        try {
          for (const tool of tools) {
            const { envelope } = await c.mcp.callTool(tool.name, {});
            const missing = tool.scopes.filter((s) => !held.has(s));
            const denied = !envelope.ok && envelope.error?.code === 'scope_denied';
            expect(denied, `${tool.name} with [${[...held].join(', ')}]: ${JSON.stringify(envelope.error ?? 'ok')}`).toBe(missing.length > 0);
          }
        } finally {
          await c.mcp.close();
        }
      }),
      params(12),
    );
  });
});
