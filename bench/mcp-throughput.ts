// Throughput of one read tool call (list_sites) through the reference server's full path — bearer auth,
// rate limits, scope check, input validation, live role, output check, activity entry — against the SDK's
// example of the same protocol era in the same run: the 2025 era (a plain tools/call, as after initialize)
// against the SDK 1.x stateless example (bench/sdk-stateless-baseline.ts), the 2026-07-28 era (the call with its
// _meta envelope and the Mcp-Method/Mcp-Name headers) against the SDK v2's createMcpHandler
// (bench/sdk-v2-baseline.ts). Each server runs in its own process, one at a time, and autocannon drives it from
// this one. Goals: at most 150 µs of server CPU per call, and at
// least 3x the baseline's requests per second, in each era.
//
//   npm run bench -- mcp-throughput [--seconds 10] [--connections 20] [--repeat 1] [--era 2025|2026|both]
//                                    [--before <checkout>] [--cpu-prof <dir>]
//
// --repeat N runs every server N times, interleaved (baseline, reference, baseline, …), and reports medians: the
// machine is shared, so one run says little. --before <checkout> adds the reference of another checkout of this
// repository (e.g. `git worktree add /tmp/before <commit>`) to each round, so before and after are measured in
// the same run. --cpu-prof <dir> writes a V8 CPU profile of each reference server (open it in Chrome DevTools or
// summarise it with `npx tsx bench/cpu-profile-summary.ts <file> --skip 8`).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { startChild, startReference } from './lib/reference-process.js';
import { processCpu } from './lib/proc.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, {
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    repeat: { type: 'string', default: '1' },
    era: { type: 'string', default: 'both' },
    before: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const duration = Number(values.seconds);
const connections = Number(values.connections);
const repeat = Number(values.repeat);
for (const [flag, value] of [['--seconds', duration], ['--connections', connections], ['--repeat', repeat]] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`mcp-throughput: ${flag} must be a whole number of at least 1.`);
    process.exit(2);
  }
}
if (!['2025', '2026', 'both'].includes(String(values.era))) {
  console.error('mcp-throughput: --era must be 2025, 2026 or both.');
  process.exit(2);
}
const eras = (values.era === 'both' ? ['2025', '2026'] : [values.era]) as Era[];
const repo = fileURLToPath(new URL('../', import.meta.url));
const cpuProfDir = typeof values['cpu-prof'] === 'string' ? resolve(values['cpu-prof']) : undefined;
const GOAL_US_PER_CALL = 150;
const GOAL_RATIO = 3;

type Era = '2025' | '2026';
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const META_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
/** The same call in each era: the body and the headers an SDK client of that era sends with it. */
const CALL: Record<Era, { body: string; headers: Record<string, string> }> = {
  '2025': { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: {} } }), headers: {} },
  '2026': {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: {}, _meta: META_2026 } }),
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'list_sites' },
  },
};
const BASELINE: Record<Era, { script: string; label: string }> = {
  '2025': { script: 'bench/sdk-stateless-baseline.ts', label: 'SDK 1.x stateless example' },
  '2026': { script: 'bench/sdk-v2-baseline.ts', label: 'SDK v2 createMcpHandler example' },
};

// CPU seconds the server used (processCpu): the load generator shares this machine's two cores, so requests per
// second alone can be capped by the client; CPU per request is not.
const cpuSeconds = processCpu;

interface Figure {
  rps: number;
  usPerCall: number;
}
/** A server that answered no call of the era (a checkout from before it was served): nothing to compare. */
const NOT_SERVED: Figure = { rps: 0, usPerCall: Number.NaN };

async function measure(label: string, era: Era, url: string, extraHeaders: Record<string, string>, pid: number): Promise<Figure> {
  const options = { url, method: 'POST' as const, body: CALL[era].body, headers: { ...headers, ...CALL[era].headers, ...extraHeaders }, connections };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration });
  const cpuAfter = cpuSeconds(pid);
  if (result['2xx'] === 0) {
    console.log(`${`${era} ${label}`.padEnd(40)} answered no call with 2xx (non-2xx ${result.non2xx}, errors ${result.errors}): the era is not served`);
    return NOT_SERVED;
  }
  const user = cpuAfter.user - cpuBefore.user;
  const cpu = user + cpuAfter.system - cpuBefore.system;
  const rps = result['2xx'] / duration;
  const usPerCall = (cpu * 1e6) / Math.max(1, result['2xx']);
  // The kernel's share (system time: sockets, fsync) is printed apart: it is where the disk's cost shows.
  console.log(`${`${era} ${label}`.padEnd(40)} ${rps.toFixed(0).padStart(7)} req/s  server CPU ${usPerCall.toFixed(0).padStart(5)} µs/call (${((user * 1e6) / Math.max(1, result['2xx'])).toFixed(0)} user; ${((cpu / duration) * 100).toFixed(0)}% of a core)  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`);
  return { rps, usPerCall };
}

/** The reference server of checkout `dir` (this one unless named), in test mode, with limits no call reaches. */
async function measureReference(label: string, era: Era, dir: string, round: number): Promise<Figure> {
  const server = await startReference({
    checkout: dir,
    args: ['--rate-limits', '100000000,100000000'],
    cpuProfDir,
    profileName: `${label.split(' ')[0]}-${era}-${round}.cpuprofile`,
  });
  try {
    const fx = new FixturesClient(server.url, server.fixturesSecret);
    const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
    const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId });
    return await measure(label, era, `${server.url}/api/mcp`, { authorization: `Bearer ${token}` }, server.pid);
  } finally {
    await server.stop();
  }
}

async function measureBaseline(era: Era): Promise<Figure> {
  const baseline = await startChild(['--import', 'tsx/esm', BASELINE[era].script], repo);
  try {
    return await measure(`${BASELINE[era].label} (baseline)`, era, baseline.url, {}, baseline.pid);
  } finally {
    await baseline.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const before = typeof values.before === 'string' ? resolve(values.before) : undefined;
console.log(`list_sites over Streamable HTTP, era(s) ${eras.join(' and ')}, ${connections} connections, ${duration}s each, ${repeat} round(s), node ${process.version}`);
type Runs = { base: Figure[]; ref: Figure[]; before: Figure[] };
const runs = Object.fromEntries(eras.map((era) => [era, { base: [], ref: [], before: [] } as Runs])) as Record<Era, Runs>;
for (let round = 1; round <= repeat; round++) {
  if (repeat > 1) console.log(`round ${round}/${repeat}`);
  for (const era of eras) {
    runs[era].base.push(await measureBaseline(era));
    if (before) runs[era].before.push(await measureReference('before (reference at --before)', era, before, round));
    runs[era].ref.push(await measureReference('reference server (full path)', era, repo, round));
  }
}
const summary = (figures: Figure[]) => ({ rps: median(figures.map((f) => f.rps)), usPerCall: median(figures.map((f) => f.usPerCall)) });
const what = repeat > 1 ? `medians of ${repeat} rounds` : 'one round';
for (const era of eras) {
  const base = summary(runs[era].base);
  const ref = summary(runs[era].ref);
  console.log(`\n${era} era, ${what}: baseline ${base.rps.toFixed(0)} req/s at ${base.usPerCall.toFixed(0)} µs/call; reference ${ref.rps.toFixed(0)} req/s at ${ref.usPerCall.toFixed(0)} µs/call`);
  const served = runs[era].before.filter((f) => f !== NOT_SERVED);
  if (before && served.length) {
    const old = summary(served);
    console.log(`before: ${old.rps.toFixed(0)} req/s at ${old.usPerCall.toFixed(0)} µs/call, ${(old.rps / base.rps).toFixed(2)}x the baseline`);
  }
  console.log(`server CPU per call: ${ref.usPerCall.toFixed(0)} µs (goal: at most ${GOAL_US_PER_CALL} µs) ${ref.usPerCall <= GOAL_US_PER_CALL ? 'met' : 'NOT met'}`);
  console.log(`requests/s vs the SDK example of the era: ${(ref.rps / base.rps).toFixed(2)}x (goal: at least ${GOAL_RATIO.toFixed(1)}x) ${ref.rps / base.rps >= GOAL_RATIO ? 'met' : 'NOT met'}; ${(base.usPerCall / ref.usPerCall).toFixed(2)}x less server CPU per call`);
}
