// rule:scope-ceiling, over HTTP: a random scope set × every tool of the catalogue. A call is refused when the
// connection lacks a scope the catalogue names for the tool; when the target declares its scope_denied code, it is
// never answered for a call whose scopes are all held.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadJson, loadTools } from '../../spec/index.js';
import { declaredErrorCode } from '../lib/declaration.js';
import { connect, params, worldWithSite } from './harness.js';

const scopes = loadJson<{ scopes: { name: string; default: string; implies: string[] }[] }>('scopes.json').scopes;
const grantable = scopes.filter((s) => s.default !== 'always').map((s) => s.name);
const implied = (granted: string[]) => new Set(granted.flatMap((g) => [g, ...(scopes.find((s) => s.name === g)?.implies ?? [])]));

const scopeDenied = declaredErrorCode('scope_denied');

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
            const why = `${tool.name} with [${[...held].join(', ')}]: ${JSON.stringify(envelope.error ?? 'ok')}`;
            // The source says a call beyond the scopes is refused; which code says so is the target's choice.
            if (missing.length > 0) expect(envelope.ok, why).toBe(false);
            // A held scope is never the reason for a refusal. With a missing one, the code is not compared: these
            // calls carry no arguments, and the source does not order input validation against the scope check.
            if (scopeDenied && missing.length === 0) expect(!envelope.ok && envelope.error?.code === scopeDenied, why).toBe(false);
          }
        } finally {
          await c.mcp.close();
        }
      }),
      params(12),
    );
  });
});
