// `npm run bench -- capture [--pages N] [--runs N] [--chromium PATH]`: migrate_site_from_url with visual capture of an N-page site
// (default 20, the free allowance of §4.3; the kit's loopback website, /many/) through the MCP endpoint of a
// reference server in this process, then the same site typed (the server without a browser) for comparison.
// Prints pages captured per minute for each run (the first includes starting Chromium) and the peak memory of
// this process plus Chromium's processes while capturing (the sum of their proportional set sizes, Pss, so pages
// Chromium's processes share are counted once), and Chromium's CPU per captured page (its processes' user and
// system time over the run, /proc). Goals: at least 60 pages per minute warm, under 1 GB peak. --chromium names the
// browser (default: the server's own choice, reference/services.ts), to compare Debian's two builds.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { McpConnection } from '../conformance/lib/mcp-client.js';
import { startTestWebsite, TEST_WEBSITE } from '../conformance/lib/test-website.js';
import { benchArgs } from './lib/args.js';
import { descendantsCpuSeconds } from './lib/proc.js';

const { values } = benchArgs(import.meta.url, { options: { pages: { type: 'string', default: '20' }, runs: { type: 'string', default: '3' }, chromium: { type: 'string' } } });
const pages = Number(values.pages);
if (!Number.isInteger(pages) || pages < 1 || pages > TEST_WEBSITE.manyPages) {
  console.error(`--pages takes 1 to ${TEST_WEBSITE.manyPages} (the kit's /many/ site).`);
  process.exit(2);
}

/** Pss in bytes of this process and every process below it (Chromium and its renderers), from /proc. */
async function treePss(): Promise<number> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(entry), ppid);
  }
  const inTree = (pid: number) => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parents.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return total;
}

async function migrate(chromium: boolean, runs: number) {
  const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-capture-'));
  const website = await startTestWebsite();
  // The queue never runs here: only the migration's own captures are measured.
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [], captureQueueDelayMs: 3_600_000, chromium: chromium ? values.chromium : null }, testMode('bench'));
  const results: { ms: number; captured: number; fidelity: string; peak: number; browserCpu: number }[] = [];
  try {
    const fx = new FixturesClient(server.url, 'bench');
    await fx.fetchAllowlist([website.url]);
    const world = await fx.world({ plan: 'agency', users: [{ key: 'o' }], sites: [{ key: 'm', members: { o: 'owner' } }] });
    const { token } = await fx.connection({ userId: world.users.o!.userId, websiteId: world.sites.m!.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
    const mcp = new McpConnection(server.url, token);
    for (let run = 0; run < runs; run++) {
      let peak = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await treePss());
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const t0 = performance.now();
      const cpu0 = descendantsCpuSeconds(process.pid);
      const { envelope } = await mcp.callTool('migrate_site_from_url', { url: `${website.url}/many/`, maxPages: pages });
      const ms = performance.now() - t0;
      const browserCpu = descendantsCpuSeconds(process.pid) - cpu0;
      sampling = false;
      await sampler;
      if (!envelope.ok) throw new Error(`migration failed: ${JSON.stringify(envelope.error)}`);
      const listed = await mcp.callTool('list_pages', { websiteId: envelope.data.websiteId });
      const captured = (listed.envelope.data.pages as { capture?: string }[]).filter((p) => p.capture === 'captured').length;
      results.push({ ms, captured, fidelity: envelope.data.fidelity, peak, browserCpu });
    }
    await mcp.close();
  } finally {
    await server.close();
    await website.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
console.log(`capture: migrate_site_from_url of a ${pages}-page site (the kit's loopback /many/), ${values.runs} runs, ${values.chromium ?? "the server's default browser"}`);
const captured = await migrate(true, Number(values.runs));
captured.forEach((r, i) =>
  console.log(
    `  capture run ${i + 1}${i === 0 ? ' (starts Chromium)' : ''}: ${r.captured} of ${pages} pages captured (fidelity ${r.fidelity}) in ${(r.ms / 1000).toFixed(1)} s = ${Math.round((r.captured / r.ms) * 60_000)} pages per minute (goal: at least 60 warm); Chromium CPU ${r.browserCpu.toFixed(2)} s, ${r.captured ? ((r.browserCpu / r.captured) * 1000).toFixed(0) : '-'} ms a page; peak memory ${mb(r.peak)} (goal: under 1024 MB)`,
  ),
);
const typed = await migrate(false, 1);
console.log(`  typed, no browser: ${pages} pages in ${(typed[0]!.ms / 1000).toFixed(1)} s (fidelity ${typed[0]!.fidelity}); peak memory ${mb(typed[0]!.peak)}`);
const warm = captured.slice(1);
if (warm.length > 0) {
  const perMinute = Math.round(warm.reduce((n, r) => n + (r.captured / r.ms) * 60_000, 0) / warm.length);
  const peak = Math.max(...captured.map((r) => r.peak));
  console.log(`capture figure: ${perMinute} pages per minute warm (goal >= 60) ${perMinute >= 60 ? 'MET' : 'NOT MET'}; peak memory ${mb(peak)} (goal < 1024 MB) ${peak < 1024 * 1024 * 1024 ? 'MET' : 'NOT MET'}`);
}
