// `npm run bench -- hostile-robots [--stars N] [--query N] [--runs N]`: the hostile website that rule
// migrate-crawl-work-bounded is for. A loopback website serves a robots.txt of one rule, `/?` and N wildcards (default
// 1,900,000, about 1.9 MB: the home page stays allowed, every address with a query is disallowed), and a home page
// linking one address with a query of --query characters (default 4,000); one migrate_site_from_url crawls it
// while other requests go to the server one after another. Prints, per run, the longest any other request took and
// the migration's wall time, beside the same migration with an ordinary robots.txt (rule
// migrate-crawl-work-bounded). Goal: the hostile robots.txt delays other requests by under 1,000 ms. The light
// check of the same thing runs in npm test (reference/test/crawler-robots.test.ts, as a ratio).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { McpConnection } from '../conformance/lib/mcp-client.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { stars: { type: 'string', default: '1900000' }, query: { type: 'string', default: '4000' }, runs: { type: 'string', default: '2' } } });
const ROBOTS = { ordinary: 'User-agent: *\nDisallow: /private\n', hostile: `User-agent: *\nDisallow: /?${'*'.repeat(Number(values.stars))}\n` };
const link = `/?q=${'q'.repeat(Number(values.query))}`;
let robots = ROBOTS.ordinary;
const website = createServer((req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Loopback</title></head><body><h1>Loopback</h1><p>Text.</p><a href="${link}">long</a></body></html>`);
});
await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
const site = `http://127.0.0.1:${(website.address() as AddressInfo).port}`;
const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-robots-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] }, { services: (services) => ({ ...services, capture: null }) }, testMode('bench'));
try {
  const fx = new FixturesClient(server.url, 'bench');
  const world = await fx.world({ passwordsOnDemand: true, plan: 'agency', users: [{ key: 'o' }], sites: [{ key: 'm', members: { o: 'owner' } }] });
  const { token } = await fx.connection({ userId: world.users.o!.userId, websiteId: world.sites.m!.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
  await fx.fetchAllowlist([site]);
  const mcp = new McpConnection(server.url, token);
  console.log(`hostile-robots: robots.txt ${(ROBOTS.hostile.length / 1e6).toFixed(1)} MB (${values.stars} wildcards), a link of ${link.length} characters`);
  for (let run = 0; run < Number(values.runs); run++) {
    for (const kind of ['ordinary', 'hostile'] as const) {
      robots = ROBOTS[kind];
      let running = true;
      let longest = 0;
      let requests = 0;
      let failed = 0;
      const others = (async () => {
        while (running && requests < 100_000) {
          const started = performance.now();
          // A request the blocked server drops (a reset connection) counts, with the time it took to fail.
          await fetch(`${server.url}/.well-known/oauth-protected-resource`).then((res) => res.arrayBuffer()).catch(() => failed++);
          longest = Math.max(longest, performance.now() - started);
          requests++;
        }
      })();
      const started = performance.now();
      const { envelope } = await mcp.callTool('migrate_site_from_url', { url: `${site}/`, maxPages: 3 });
      const wall = performance.now() - started;
      running = false;
      await others;
      const outcome = envelope.ok ? `${envelope.data.pagesFetched} fetched, ${envelope.data.pagesFailed} failed` : `refused: ${envelope.error?.message}`;
      console.log(`  run ${run + 1}, ${kind.padEnd(8)} robots.txt: other requests delayed up to ${Math.round(longest)} ms (${requests} requests, ${failed} failed), migration ${Math.round(wall)} ms (${outcome})${kind === 'hostile' ? ' (goal: under 1,000 ms)' : ''}`);
    }
  }
  await mcp.close();
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => website.close(() => resolve()));
}
