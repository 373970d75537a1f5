// Throughput of one read tool call (list_sites) through the reference server's full path — bearer auth,
// rate limits, scope check, input validation, live role, output check, activity entry — against the SDK's
// stateless example (bench/sdk-stateless-baseline.ts) in the same run. Each server runs in its own process,
// one at a time, and autocannon drives it from this one. Target (issue 3): at least 2x the baseline.
//
//   npm run bench -- mcp-throughput [--seconds 10] [--connections 20]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startReferenceServer } from '../conformance/lib/target.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } }, strict: false });
const duration = Number(values.seconds);
const connections = Number(values.connections);
const repo = fileURLToPath(new URL('../', import.meta.url));

const callBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: {} } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** CPU seconds (user + system) a process has used, from /proc: the load generator shares this machine's
 * two cores, so requests per second alone can be capped by the client; CPU per request is not. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(label: string, url: string, extraHeaders: Record<string, string>, pid: number) {
  const options = { url, method: 'POST' as const, body: callBody, headers: { ...headers, ...extraHeaders }, connections };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration });
  const cpu = cpuSeconds(pid) - cpuBefore;
  const rps = result['2xx'] / duration;
  const usPerCall = (cpu * 1e6) / Math.max(1, result['2xx']);
  console.log(`${label.padEnd(34)} ${rps.toFixed(0).padStart(7)} req/s  server CPU ${usPerCall.toFixed(0).padStart(5)} µs/call (${((cpu / duration) * 100).toFixed(0)}% of a core)  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`);
  return { rps, usPerCall };
}

async function startBaseline(): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/sdk-stateless-baseline.ts'], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error('baseline exited')));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

console.log(`list_sites over Streamable HTTP, ${connections} connections, ${duration}s each, node ${process.version}`);
const baseline = await startBaseline();
let base: { rps: number; usPerCall: number };
try {
  base = await measure('SDK stateless example (baseline)', baseline.url, {}, baseline.pid);
} finally {
  baseline.stop();
}
// Limits high enough that every measured call takes the checked path and none is refused.
const reference = await startReferenceServer(['--rate-limits', '100000000,100000000']);
try {
  const fx = new FixturesClient(reference.url, reference.fixturesSecret);
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId });
  const ref = await measure('reference server (full path)', `${reference.url}/api/mcp`, { authorization: `Bearer ${token}` }, reference.pid!);
  console.log(`ratio reference/baseline: ${(ref.rps / base.rps).toFixed(2)}x requests/s, ${(base.usPerCall / ref.usPerCall).toFixed(2)}x less server CPU per call (target >= 2.00x)`);
} finally {
  await reference.stop();
}
