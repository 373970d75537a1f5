// `npm run bench -- hostile-robots [--stars N] [--query N] [--runs N] [--migrations N]`: the hostile websites that rule
// migrate-crawl-work-bounded is for. A loopback website serves one of three robots.txt files: `ordinary`; `wildcards`,
// one rule of `/?` and N wildcards (default 1,900,000, about 1.9 MB: the home page stays allowed, every address with a
// query is disallowed); `many-rules`, 500 KB of distinct rules `/*` + 30 `a` + `b*<i>`, each searched for along
// the whole of every address. Its home page links one address with a query of --query characters (default 4,000)
// and one path of 1,990 `a`. --migrations sites (default 12) are migrated from it once, then re-synced from it
// (mergeIntoWebsiteId: no new site, the same crawl) over and over, all at once, each at most every 600 ms, for --seconds (default 15) per file,
// while other requests go to the server one after another. Prints, per run and file, the other requests' median
// and longest time and how many re-syncs ended. Goals: the hostile files delay no other request by 1,000 ms, and the other
// requests' median stays within 2 times the ordinary file's. The light check of the same thing runs in npm test
// (reference/test/crawler-robots.test.ts, as a ratio).
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

const { values } = benchArgs(import.meta.url, { options: { stars: { type: 'string', default: '1900000' }, query: { type: 'string', default: '4000' }, runs: { type: 'string', default: '2' }, migrations: { type: 'string', default: '12' }, seconds: { type: 'string', default: '15' } } });
function manyRules(): string {
  let body = 'User-agent: *\n';
  for (let i = 0; body.length < 500_000 - 100; i++) body += `Disallow: /*${'a'.repeat(30)}b*${i}\n`;
  return body;
}
const ROBOTS = { ordinary: 'User-agent: *\nDisallow: /private\n', wildcards: `User-agent: *\nDisallow: /?${'*'.repeat(Number(values.stars))}\n`, 'many-rules': manyRules() };
const link = `/?q=${'q'.repeat(Number(values.query))}`;
const pathLink = `/${'a'.repeat(1_990)}`;
let robots = ROBOTS.ordinary;
const website = createServer((req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Loopback</title></head><body><h1>Loopback</h1><p>Text.</p><a href="${link}">long</a><a href="${pathLink}">long path</a></body></html>`);
});
await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
const site = `http://127.0.0.1:${(website.address() as AddressInfo).port}`;
const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-robots-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] }, { services: (services) => ({ ...services, capture: null }) }, testMode('bench'));
try {
  const fx = new FixturesClient(server.url, 'bench');
  await fx.fetchAllowlist([site]);
  const migrations = Number(values.migrations);
  // A workspace and connection of its own per migration: the per-connection and per-workspace call limits
  // (spec/limits.json) count each apart, as they would count twelve tenants.
  const tenants: McpConnection[] = [];
  for (let i = 0; i < migrations; i++) {
    const world = await fx.world({ passwordsOnDemand: true, plan: 'agency', users: [{ key: 'o' }], sites: [{ key: 'm', members: { o: 'owner' } }] });
    const { token } = await fx.connection({ userId: world.users.o!.userId, websiteId: world.sites.m!.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
    tenants.push(new McpConnection(server.url, token));
  }
  console.log(`hostile-robots: ${migrations} migrations at once; robots.txt wildcards ${(ROBOTS.wildcards.length / 1e6).toFixed(1)} MB (${values.stars} wildcards), many-rules ${(ROBOTS['many-rules'].length / 1e6).toFixed(1)} MB (${ROBOTS['many-rules'].split('\n').length - 2} rules); links of ${link.length} and ${pathLink.length} characters`);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  robots = ROBOTS.ordinary;
  const sites: string[] = [];
  for (const mcp of tenants) {
    const { envelope } = await mcp.callTool('migrate_site_from_url', { url: `${site}/`, maxPages: 3 });
    if (!envelope.ok) throw new Error(`the first migration was refused: ${envelope.error?.message}`);
    sites.push(String(envelope.data.websiteId));
  }
  for (let run = 0; run < Number(values.runs); run++) {
    let ordinaryMedian = 0;
    for (const kind of ['ordinary', 'wildcards', 'many-rules'] as const) {
      robots = ROBOTS[kind];
      let running = true;
      const times: number[] = [];
      let failed = 0;
      const others = (async () => {
        while (running && times.length < 100_000) {
          const started = performance.now();
          // A request the blocked server drops (a reset connection) counts, with the time it took to fail.
          await fetch(`${server.url}/.well-known/oauth-protected-resource/api/mcp`).then((res) => res.arrayBuffer()).catch(() => failed++);
          times.push(performance.now() - started);
        }
      })();
      const until = performance.now() + Number(values.seconds) * 1000;
      const answers: Awaited<ReturnType<McpConnection['callTool']>>[] = [];
      await Promise.all(sites.map(async (websiteId, i) => {
        while (performance.now() < until) {
          // At most one call every 600 ms: 100 a minute, under the connection's 120 (§8).
          const paced = new Promise((resolve) => setTimeout(resolve, 600));
          const answer = await tenants[i]!.callTool('migrate_site_from_url', { url: `${site}/`, maxPages: 3, mergeIntoWebsiteId: websiteId });
          answers.push(answer);
          if (!answer.envelope.ok) break;
          await paced;
        }
      }));
      running = false;
      await others;
      const sorted = [...times].sort((a, b) => a - b);
      const median = at(sorted, 0.5);
      if (kind === 'ordinary') ordinaryMedian = median;
      const ok = answers.filter((a) => a.envelope.ok);
      const outcome = ok.length === answers.length ? `each ${ok[0]!.envelope.data.pagesFetched} fetched, truncated ${ok[0]!.envelope.data.truncated}` : `${answers.length - ok.length} refused: ${answers.find((a) => !a.envelope.ok)!.envelope.error?.message}`;
      const goals = kind === 'ordinary' ? '' : ` (goals: longest under 1,000 ms, median within 2x of ordinary: ${sorted.at(-1)! < 1000 && median <= 2 * ordinaryMedian ? 'met' : 'NOT MET'})`;
      console.log(`  run ${run + 1}, ${kind.padEnd(10)}: other requests median ${median.toFixed(1)} ms, longest ${Math.round(sorted.at(-1) ?? 0)} ms (${times.length} requests, ${failed} failed); ${answers.length} re-syncs (${outcome})${goals}`);
    }
  }
  for (const mcp of tenants) await mcp.close();
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => website.close(() => resolve()));
}
