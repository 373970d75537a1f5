// A scenario that calls a catalogue tool the target has not built is not checked (not implemented), never failed
// (conformance/docs/declaration.md, "A partial implementation"). When nothing is checked before that call (no outcome step
// comes first), it stops before its first step, so its arranging steps never meet a fixtures route or a state that
// only that tool needs (the credits, a failing image provider); otherwise the call itself stops it
// (steps/mcp.steps.ts), after what it checked. What the target lists is read once per process, through a
// connection of a world of its own.
import { Before } from '@cucumber/cucumber';
import { declaredNotImplemented, NotImplemented } from '../../conformance/lib/declaration.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import { loadTools } from '../../spec/index.js';
import { HOOK } from './hook.js';
import type { SiteWorld } from './world.js';

const catalogue = new Set(loadTools().map((t) => t.name));
let listed: Promise<Set<string> | undefined> | undefined;

/** The tools the target's tools/list names (undefined when it could not be read: nothing is then skipped for it). */
export function targetTools(url: string, fixturesSecret: string): Promise<Set<string> | undefined> {
  listed ??= (async () => {
    const fixtures = new FixturesClient(url, fixturesSecret);
    const world = await fixtures.world({ passwordsOnDemand: true, users: [{ key: 'lister' }], sites: [{ key: 'listed', members: { lister: 'owner' } }] });
    const { token } = await fixtures.connection({ userId: world.users.lister!.userId, websiteId: world.sites.listed!.websiteId, reach: 'website', scopes: ['site:read'] });
    const mcp = new McpConnection(url, token);
    try {
      return new Set((await mcp.listTools()).tools.map((t) => t.name));
    } finally {
      await mcp.close();
    }
  })().catch(() => undefined);
  return listed;
}

/**
 * A catalogue tool the target has not built stops the scenario as not checked (not implemented), never failed: one
 * its declaration names in notImplemented, or one its tools/list does not name (tool-catalogue-exact fails for that
 * alone). A name outside the catalogue is called as it is: refusing it is what such a scenario checks.
 */
export async function requireImplemented(world: SiteWorld, tool: string): Promise<void> {
  if (!catalogue.has(tool)) return;
  if (declaredNotImplemented('tools', tool)) throw new NotImplemented(`tool ${tool} (notImplemented in the declaration)`);
  const listedNow = await targetTools(world.url, String(process.env.SITE_MCP_FIXTURES_SECRET));
  if (listedNow && !listedNow.has(tool)) throw new NotImplemented(`tool ${tool} (not in the target's tools/list)`);
}

type Step = { text: string; type?: string };

/** The catalogue tools a scenario calls before its first outcome step (`calls "<tool>"`). */
function toolsCalledFirst(steps: readonly Step[]): string[] {
  const firstOutcome = steps.findIndex((s) => s.type === 'Outcome');
  const before = firstOutcome === -1 ? steps : steps.slice(0, firstOutcome);
  return [...new Set(before.flatMap((s) => [...s.text.matchAll(/\bcalls "([a-z_]+)"/g)].map((m) => m[1]!)))].filter((t) => catalogue.has(t));
}

const skipUnbuiltTools = Object.assign(async function (this: SiteWorld, { pickle }: { pickle: { steps: readonly Step[] } }) {
  const tools = toolsCalledFirst(pickle.steps);
  if (!tools.length) return undefined;
  const declared = tools.filter((t) => declaredNotImplemented('tools', t));
  const listedNow = declared.length ? undefined : await targetTools(this.url, String(process.env.SITE_MCP_FIXTURES_SECRET));
  const missing = declared.length ? declared : tools.filter((t) => listedNow && !listedNow.has(t));
  if (!missing.length) return undefined;
  this.notChecked(`not implemented: tool ${missing.join(', ')} (${declared.length ? 'notImplemented in the declaration' : "not in the target's tools/list"}): the rest of the scenario`);
  return 'skipped';
}, { [HOOK]: true as const });
Before(skipUnbuiltTools);
