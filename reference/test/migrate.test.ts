// migrate_site_from_url end to end against a fake public web (injected resolver and transport; this machine
// has no public network) on a server without a browser: bounded same-site crawl honouring robots.txt, scripts and
// embeds dropped, the typed fallback reported (fidelity typed, nothing awaiting capture), every count relayed, and
// a re-sync by the typed path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Network } from '../infra/safe-fetch.js';
import { startTestServer, type TestServer } from './harness.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

const pages: Record<string, string> = {
  '/robots.txt': 'User-agent: *\nDisallow: /private',
  '/': '<html><head><title>Rosa Bakes</title><script>track()</script></head><body><h1>Rosa Bakes</h1><p>Bread daily.</p><a href="/about">About</a><a href="/private/x">P</a><a href="https://elsewhere.example/">Out</a>' + Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('') + '<iframe src="https://booking.example/widget"></iframe></body></html>',
  '/about': '<html><head><title>About</title></head><body><h1>About us</h1><p>Since 1990.</p><img src="https://cdn.example/a.jpg" alt="Shop"></body></html>',
};
for (let i = 0; i < 12; i++) pages[`/p${i}`] = `<html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>Text ${i}.</p></body></html>`;

let fetched: string[] = [];
let test: TestServer;
let mcp: McpConnection;
let mainId: string;

/** A fake public web in the services record (the real network runs in reference/test/safe-fetch.test.ts). */
const net: Network = {
  resolve: async (host) => (host.endsWith('.example') ? ['93.184.216.34'] : []),
  transport: async (url) => {
    fetched.push(url.pathname);
    const body = url.hostname === 'rosa.example' ? pages[url.pathname] : undefined;
    if (body === undefined) return { status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from('no') };
    return { status: 200, headers: { 'content-type': url.pathname === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8' }, body: Buffer.from(body) };
  },
};

beforeAll(async () => {
  // No browser (capture: null): every migration takes the typed path and says so (rule migrate-capture-then-typed);
  // capture with a browser is reference/test/capture.test.ts.
  test = await startTestServer('migrate', {}, { fakes: { net, capture: null } });
  const world = await test.fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  mainId = world.sites.main!.websiteId;
  const { token } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read', 'content:write'] });
  mcp = new McpConnection(test.url, token);
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
});

describe('migrate_site_from_url', () => {
  it('rule:migrate-crawl-bounded rule:migrate-capture-then-typed rule:migrate-result-relayed rule:migrate-result-fields rule:migrate-no-source-scripts — crawls within bounds and robots, relays every count', async () => {
    fetched = [];
    const { envelope } = await mcp.callTool('migrate_site_from_url', { url: 'https://rosa.example/', maxPages: 8 });
    expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
    const data = envelope.data;
    expect(data.fidelity).toBe('typed');
    expect(data.pagesAwaitingCapture).toBe(0);
    expect(data.pagesFetched + data.pagesFailed).toBe(8);
    expect(data.truncated).toBe(true);
    expect(fetched).not.toContain('/private/x'); // disallowed by robots.txt: never fetched
    expect(fetched.every((p) => !p.includes('elsewhere'))).toBe(true);
    expect(data.actionsRequired.join(' ')).toMatch(/typed sections/);
    expect(data.actionsRequired.join(' ')).toMatch(/scripts, widgets or embeds/);
  });

  it('rule:migrate-merge-typed — re-syncs a site by the typed path under the merge rules', async () => {
    const again = await mcp.callTool('migrate_site_from_url', { url: 'https://rosa.example/about', maxPages: 1, mergeIntoWebsiteId: mainId });
    expect(again.envelope.ok, JSON.stringify(again.envelope.error)).toBe(true);
    expect(again.envelope.data.websiteId).toBe(mainId);
    const pages = await mcp.callTool('list_pages', {});
    expect(pages.envelope.data.pages.map((p: { slug: string }) => p.slug)).toContain('about');
  });

  it('rule:import-checks-before-fetch — a migration past the plan\'s site limit reads nothing of the source website', async () => {
    const world = await test.fx.world({ plan: 'free', users: [{ key: 'owner' }], sites: [{ key: 'only', members: { owner: 'owner' } }] });
    const { token } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.only!.websiteId, scopes: ['content:write'] });
    const full = new McpConnection(test.url, token);
    try {
      fetched = [];
      const { envelope } = await full.callTool('migrate_site_from_url', { url: 'https://rosa.example/', maxPages: 8 });
      expect(envelope.ok).toBe(false);
      expect(envelope.error?.code).toBe('site_limit_reached');
      expect(fetched).toEqual([]);
    } finally {
      await full.close();
    }
  });
});
