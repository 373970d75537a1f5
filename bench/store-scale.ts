// Cost of one write as a workspace grows: the median latency of update_section_text through
// the reference server's full path in a one-site workspace, against a 150-site and a 1,000-site workspace of
// 10 pages × 5 sections per site. Each size gets its own data directory, built in this process with the world
// builder (reference/testing/world.ts) before the server starts, and its own server process (the real main.ts),
// so start-up includes opening that directory; the sizes' writes take turns. Printed per size: the server's
// start-up (spawn to listening), its first call (which loads the workspace), the median and p90 write latency,
// the server's CPU per write, and its memory.
// Goal: the median in a 150-site workspace within 1.5x of the one-site median, within 2x at 1,000 sites.
//
//   npm run bench -- store-scale [--sizes 1,150,1000] [--writes 60]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { McpConnection } from '../conformance/lib/mcp-client.js';
import { Store } from '../reference/infra/store/store.js';
import { buildWorld, type WorldRequest } from '../reference/testing/world.js';
import { processCpu } from './lib/proc.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { sizes: { type: 'string', default: '1,150,1000' }, writes: { type: 'string', default: '60' } } });
const sizes = String(values.sizes).split(',').map(Number);
const writes = Number(values.writes);
const repo = fileURLToPath(new URL('../', import.meta.url));
const SECRET = 'store-scale-bench';
const PAGES = 10;
const SECTIONS = 5;

/** A site of 10 pages × 5 sections with a few sentences each: about 10 kB stored, as in the measurement. */
function siteSpec(i: number): NonNullable<WorldRequest['sites']>[number] {
  const text = 'We bake sourdough, rye and seasonal pastries every morning in our wood-fired oven, with flour from local mills.';
  return {
    key: `s${i}`,
    businessName: `Bakery ${i}`,
    members: { owner: 'owner' },
    pages: Array.from({ length: PAGES }, (_, p) => ({
      key: `p${p}`,
      title: `Page ${p}`,
      sections: Array.from({ length: SECTIONS }, (_, s) => ({ key: `sec${s}`, type: 'hero', content: { heading: `Heading ${p}.${s}`, subheading: text } })),
    })),
  };
}

/** Bytes stored under `dir` (the workspace's documents and lookup entries). */
async function storedBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

/** CPU seconds (user + system) a process has used: what a write costs the server apart from waiting on the disk. */
function cpuSeconds(pid: number): number {
  const { user, system } = processCpu(pid);
  return user + system;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) / 1024;
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', 'reference/main.ts', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--fixtures-secret', SECRET, '--no-seed', '--rate-limits', '100000000,100000000'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not start in 60 s')), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child, ms: performance.now() - started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

interface Prepared {
  size: number;
  dataDir: string;
  server: { url: string; child: ChildProcess; ms: number };
  buildMs: number;
  storedMb: number;
  firstMs: number;
  call(n: number): Promise<number>;
  close(): Promise<void>;
}

/** A data directory of `size` sites, its own server started on it, and a connection to write with. */
async function prepare(size: number): Promise<Prepared> {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-store-scale-'));
  const buildStart = performance.now();
  const store = await Store.open(dataDir);
  const world = await buildWorld(store, { plan: 'agency', users: [{ key: 'owner' }], sites: Array.from({ length: size }, (_, i) => siteSpec(i)) }, new Date());
  const buildMs = performance.now() - buildStart;
  const storedMb = (await storedBytes(dataDir)) / 1e6;
  const server = await startServer(dataDir);
  const fx = new FixturesClient(server.url, SECRET);
  // The site written to is in the middle of the workspace, so nothing favours the first or last record.
  const target = world.sites[`s${Math.floor(size / 2)}`]!;
  const firstStart = performance.now();
  const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: target.websiteId, scopes: ['site:read', 'content:write'] });
  const firstMs = performance.now() - firstStart;
  const mcp = new McpConnection(server.url, token);
  const sectionId = target.pages.p5!.sections.sec2!;
  return {
    size,
    dataDir,
    server,
    buildMs,
    storedMb,
    firstMs,
    async call(n) {
      const t = performance.now();
      const outcome = await mcp.callTool('update_section_text', { websiteId: target.websiteId, sectionId, field: 'heading', text: `Edited ${n}` });
      if (!outcome.envelope?.ok) throw new Error(`update_section_text failed: ${JSON.stringify(outcome.envelope ?? outcome)}`);
      return performance.now() - t;
    },
    async close() {
      await mcp.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        if (server.child.exitCode !== null) return resolve();
        server.child.once('exit', () => resolve());
        server.child.kill('SIGTERM');
      });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

console.log(`update_section_text through the full path, ${PAGES} pages × ${SECTIONS} sections per site, ${writes} sequential writes per size, node ${process.version}`);
// Every size's server runs at once and the writes take turns (1, 150, 1,000, 1, 150, ...): other work on a shared
// machine then slows every size alike instead of whichever happened to run during it.
const prepared: Prepared[] = [];
try {
  for (const size of sizes) prepared.push(await prepare(size));
  for (const p of prepared) for (let n = 0; n < 5; n++) await p.call(-n - 1); // warm-up: JIT, the MCP session
  const latencies = new Map(prepared.map((p) => [p, [] as number[]]));
  const cpuBefore = new Map(prepared.map((p) => [p, cpuSeconds(p.server.child.pid!)]));
  for (let n = 0; n < writes; n++) for (const p of prepared) latencies.get(p)!.push(await p.call(n));
  const results = prepared.map((p) => {
    const xs = latencies.get(p)!;
    return { size: p.size, median: median(xs), p90: p90(xs), cpuMsPerWrite: ((cpuSeconds(p.server.child.pid!) - cpuBefore.get(p)!) * 1000) / writes, rss: rssMb(p.server.child.pid!), startMs: p.server.ms, firstMs: p.firstMs, storedMb: p.storedMb, buildMs: p.buildMs };
  });
  for (const r of results) {
    console.log(
      `${String(r.size).padStart(5)} sites: write median ${r.median.toFixed(1).padStart(6)} ms  p90 ${r.p90.toFixed(1).padStart(6)} ms  server CPU ${r.cpuMsPerWrite.toFixed(1)} ms/write  ` +
        `start-up ${r.startMs.toFixed(0)} ms (listening) + ${r.firstMs.toFixed(0)} ms (first call, loads the workspace)  server RSS ${r.rss.toFixed(0)} MB  (stored ${r.storedMb.toFixed(2)} MB, built in ${r.buildMs.toFixed(0)} ms)`,
    );
  }
  const one = results.find((r) => r.size === 1);
  if (one) {
    for (const r of results) {
      if (r.size === 1) continue;
      const goal = r.size >= 1000 ? 2 : 1.5;
      const ratio = r.median / one.median;
      console.log(`ratio ${r.size} sites / 1 site: ${ratio.toFixed(2)}x median latency, ${(r.cpuMsPerWrite / one.cpuMsPerWrite).toFixed(2)}x server CPU (goal <= ${goal.toFixed(1)}x at ${r.size >= 1000 ? '1,000' : r.size} sites) ${ratio <= goal ? 'met' : 'NOT met'}`);
    }
  }
} finally {
  for (const p of prepared) await p.close();
}
