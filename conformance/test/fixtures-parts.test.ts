// A partial server's fixtures (conformance/lib/fixtures-client.ts): a route of a part its handshake does not list is
// never asked in a run; the step needing it is not checked, never failed. Every route maps to a part the Handshake
// schema names.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSchemas, SPEC_BASE } from '../../spec/index.js';
import { FixturesClient, fixturesPartOf, FixturesPartMissing } from '../lib/fixtures-client.js';

const handshake = (loadSchemas().get(`${SPEC_BASE}schemas/fixtures/fixtures.schema.json`) as { $defs: { Handshake: { properties: { supports: { items: { enum: string[] } } } } } }).$defs.Handshake;
const PARTS = new Set(handshake.properties.supports.items.enum);

describe('fixtures parts', () => {
  const saved = process.env.SITE_MCP_FIXTURES_SUPPORTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.SITE_MCP_FIXTURES_SUPPORTS;
    else process.env.SITE_MCP_FIXTURES_SUPPORTS = saved;
  });

  it('maps every route the kit asks to a part of the handshake', () => {
    const routes = ['/worlds', '/connections', '/connections/c1', '/connections/c1/plans', '/connections/c1/activity', '/users/u1/password', '/users/u1/companies', '/limits', '/memberships', '/workspaces/w1/settings', '/workspaces/w1/clock', '/workspaces/w1/fail-next-write', '/workspaces/w1/invalid-next-answer', '/workspaces/w1/no-capture-next-migration', '/workspaces/w1/fail-next-image', '/app-edits', '/record-edits', '/plans/p1/approve', '/plans/p1', '/pairings/ABCD-EFGH/approve', '/sites/s1', '/sites/s1/restore-points', '/fetch-allowlist', '/dns-resolver', '/oauth-consent'];
    for (const route of routes) expect(PARTS.has(fixturesPartOf(route) ?? ''), `${route} -> ${fixturesPartOf(route)}`).toBe(true);
    expect(fixturesPartOf('/workspaces/w1/fail-next-image')).toBe('fail-next-image');
    expect(fixturesPartOf('/plans/p1/decline')).toBe('plan-decisions');
  });

  it('in a run, refuses to ask a route of a part the handshake did not list, before any request', async () => {
    process.env.SITE_MCP_FIXTURES_SUPPORTS = 'worlds,connections,sites';
    const client = new FixturesClient('http://127.0.0.1:9', 'secret-secret-secret');
    await expect(client.failNextWrite('w1')).rejects.toBeInstanceOf(FixturesPartMissing);
    await expect(client.failNextWrite('w1')).rejects.toThrow(/fixtures part fail-next-write \(the target's handshake does not list it/);
    // A listed part, and the core, are asked (here: nobody listens, so the request itself fails).
    await expect(client.siteState('s1')).rejects.not.toBeInstanceOf(FixturesPartMissing);
    await expect(client.request('POST', '/worlds', {})).rejects.not.toBeInstanceOf(FixturesPartMissing);
  });

  it("checks an answer against its schema definition and names the route and what is off, not a TypeError later", async () => {
    delete process.env.SITE_MCP_FIXTURES_SUPPORTS;
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ workspaceId: 'w1', users: {} })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new FixturesClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'secret-secret-secret');
      await expect(client.world({ users: [{ key: 'a' }] })).rejects.toThrow(/fixtures POST \/worlds answered a body that does not match WorldResponse \(spec\/schemas\/fixtures\/fixtures\.schema\.json\): .*sites/);
    } finally {
      server.close();
    }
  });
});
