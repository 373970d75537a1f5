// How long a full conformance run takes against a reference server that is already running (goal:
// under 12 s). One reference is started in test mode and kept for every run; each run is the kit's own CLI
// (`conformance/cli.ts --url … --declaration conformance/declarations/reference.yaml`) as a child process, timed
// from spawn to exit, once per --parallel value (Cucumber's worker processes; every scenario builds its own world
// through the fixtures protocol, so they share the server without sharing state). Prints wall time, the server's
// CPU during the run, the kit's (the CLI and its workers) and the load average, and the CLI's own pass/fail line,
// then the fastest figure against the goal. The reference's store is where the kit puts a throwaway reference's
// (conformance/lib/scratch-dir.ts: in memory when the machine has room, as in npm test), and the first line says where.
//
//   npm run bench -- suite [--parallel 1,2,4|auto] [--repeat 1] [--latency MS] [--remote-parallel auto] [--protocol ERA|all] [--cpu-prof DIR] [-- <features/x.feature ...>]
//
// --protocol is the kit's own (one MCP era, e.g. 2025-11-25, or all, the default); the goals are for one era.
//
// --latency MS also runs the suite through a proxy that holds every request MS milliseconds (a target in another
// region; goal under 30 s at 50 ms), with the kit choosing its parallelism from the round trip it measures
// (auto; --remote-parallel 4,6,auto compares others), printed beside the local run.
//
// --cpu-prof DIR writes a V8 CPU profile of the reference over all the runs (npx tsx bench/cpu-profile-summary.ts).
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../conformance/lib/scratch-dir.js';
import { startReference } from './lib/reference-process.js';
import { startDelayingProxy } from './lib/delaying-proxy.js';
import { descendantsCpuSeconds, processCpu } from './lib/proc.js';
import { benchArgs } from './lib/args.js';

const GOAL_SECONDS = 12;
const RUN_TIMEOUT_MS = 10 * 60_000;
const { values, positionals } = benchArgs(import.meta.url, {
  options: { parallel: { type: 'string', default: '1,2,4' }, repeat: { type: 'string', default: '1' }, latency: { type: 'string', default: '0' }, 'remote-parallel': { type: 'string', default: 'auto' }, protocol: { type: 'string' }, 'cpu-prof': { type: 'string' } },
  allowPositionals: true,
});
// 0 stands for auto: the kit chooses from the target's round trip (no --parallel).
const workers = values.parallel.split(',').map((p) => (p === 'auto' ? 0 : Number(p)));
const remoteWorkers = values['remote-parallel'].split(',').map((p) => (p === 'auto' ? 0 : Number(p)));
const repeat = Number(values.repeat);
const latency = Number(values.latency);
if ([...workers, ...remoteWorkers].some((n) => !Number.isInteger(n) || n < 0) || !Number.isInteger(repeat) || repeat < 1 || !Number.isInteger(latency) || latency < 0) {
  console.error('suite: --parallel and --remote-parallel take whole numbers of at least 1 or auto separated by commas (e.g. 1,2,auto), --repeat one whole number of at least 1, --latency milliseconds (0 or more).');
  process.exit(2);
}
const LATENCY_GOAL_SECONDS = 30;
const repo = fileURLToPath(new URL('../', import.meta.url));

const cpuSeconds = processCpu;

/**
 * CPU seconds of this process's children that have exited and been waited for (cutime + cstime): across one run,
 * the kit's (the CLI, its Cucumber workers, their DNS stub and website), not the server's, which is still running.
 */
function exitedChildrenCpuSeconds(): number {
  return processCpu('self').children;
}

interface Run {
  parallel: number;
  /** What the kit's start line said of its parallelism (and the round trip it measured). */
  chosen?: string;
  /** The proxy's delay in front of the reference, 0 for a run without it. */
  latency?: number;
  seconds: number;
  /** The server's CPU seconds during the run, and the kernel's part of them (files, fsync, sockets). */
  serverCpu: number;
  serverSystem: number;
  /** CPU seconds of the server's child processes during the run (Chromium, when a scenario captures pages). */
  browserCpu: number;
  /** The kit's CPU seconds during the run (the CLI and its workers): with the server's, what two cores must share. */
  kitCpu: number;
  exitCode: number | null;
  summary: string;
  /** The report lines of the rules that failed, when the run did not pass. */
  failures: string[];
  /** Each scenario's time from the run's junit.xml: where the wall time goes. */
  scenarios: { feature: string; name: string; seconds: number }[];
}

const unescapeXml = (text: string) => text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The scenarios of a junit.xml the CLI wrote, each with its feature and time. */
function scenarioTimes(junitFile: string): Run['scenarios'] {
  if (!existsSync(junitFile)) return [];
  const cases = readFileSync(junitFile, 'utf8').matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="([\d.]+)"/g);
  return [...cases].map(([, feature, name, time]) => ({ feature: unescapeXml(feature!), name: unescapeXml(name!), seconds: Number(time) }));
}

async function conformanceRun(url: string, secret: string, parallel: number, serverPid: number): Promise<Run> {
  const reportDir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-suite-'));
  const args = ['--import', 'tsx/esm', 'conformance/cli.ts', '--url', url, '--fixtures-secret', secret, '--declaration', 'conformance/declarations/reference.yaml', ...(parallel ? ['--parallel', String(parallel)] : []), ...(values.protocol ? ['--protocol', values.protocol] : []), '--report-dir', reportDir, ...positionals];
  const serverCpu0 = cpuSeconds(serverPid);
  const browserCpu0 = descendantsCpuSeconds(serverPid);
  const kitCpu0 = exitedChildrenCpuSeconds();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let out = '';
  let head = '';
  const keep = (d: Buffer) => {
    if (head.length < 2_000) head += d.toString();
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const killer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  clearTimeout(killer);
  const seconds = (performance.now() - t0) / 1000;
  const kitCpu = exitedChildrenCpuSeconds() - kitCpu0;
  const scenarios = scenarioTimes(join(reportDir, 'junit.xml'));
  await rm(reportDir, { recursive: true, force: true });
  const summary = /^(scenarios: [^\n]*)/m.exec(out)?.[1] ?? `no summary line; the run's tail:\n${out.slice(-2000)}`;
  const failures = exitCode === 0 ? [] : out.split('\n').filter((line) => /\bfailed\b/.test(line) && !/^(rules|scenarios): /.test(line)).slice(0, 10);
  const serverCpu1 = cpuSeconds(serverPid);
  const browserCpu = descendantsCpuSeconds(serverPid) - browserCpu0;
  const serverSystem = serverCpu1.system - serverCpu0.system;
  // The parallelism the kit chose, when it chose (its start line: "parallel 8 (round trip 51.2 ms)").
  const chosen = /· parallel (\d+)[^·]*·/.exec(head);
  return { parallel: parallel || Number(chosen?.[1] ?? 0), chosen: chosen?.[0].slice(2, -2), seconds, serverCpu: serverCpu1.user - serverCpu0.user + serverSystem, serverSystem, browserCpu, kitCpu, exitCode, summary, failures, scenarios };
}

/** A port of 127.0.0.1 no one listens on right now. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

const cpuProfDir = values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined;
const storeParent = scratchDir();
const server = await startReference({ checkout: repo, cpuProfDir, profileName: 'suite-reference.cpuprofile', quiet: true, dataParent: storeParent });
const runs: Run[] = [];
try {
  console.log(`conformance run against a running reference (${server.url}, its store under ${storeParent}), declaration conformance/declarations/reference.yaml${positionals.length ? `, ${positionals.join(' ')}` : ''}, node ${process.version}`);
  // A second reference for the remote runs, behind the delaying proxy, whose address is its base URL.
  const proxy = latency > 0 ? await startDelayingProxy(latency) : undefined;
  // Its own port is chosen here: its "listening on" line names its base URL, the proxy's.
  const remotePort = proxy ? await freePort() : 0;
  const remote = proxy ? await startReference({ checkout: repo, quiet: true, dataParent: storeParent, args: ['--port', String(remotePort), '--base-url', proxy.url, '--allowed-host', new URL(proxy.url).host] }) : undefined;
  if (proxy && remote) proxy.setTarget(`http://127.0.0.1:${remotePort}`);
  try {
    for (let round = 0; round < repeat; round++) {
      // Local and remote runs interleaved, so the load of the machine weighs on both alike.
      for (const [target, delay, list] of [[server, 0, workers], ...(proxy && remote ? [[{ ...remote, url: proxy.url }, latency, remoteWorkers]] : [])] as [typeof server, number, number[]][]) {
        for (const parallel of list) {
          const run = { ...(await conformanceRun(target.url, target.fixturesSecret, parallel, target.pid!)), latency: delay };
          runs.push(run);
          const how = parallel ? `--parallel ${String(parallel).padEnd(2)}` : `auto: ${run.chosen ?? '?'}`;
          console.log(`  ${delay ? `${delay} ms away, ` : ''}${how} ${run.seconds.toFixed(1).padStart(6)} s wall, server CPU ${run.serverCpu.toFixed(1)} s (${run.serverSystem.toFixed(1)} s of it system), its browser's ${run.browserCpu.toFixed(1)} s, kit CPU ${run.kitCpu.toFixed(1)} s, load ${loadavg()[0]!.toFixed(1)}, exit ${run.exitCode}: ${run.summary}`);
          // A failed run is no figure; say what failed so it can be replayed (npm run conformance -- --rules …).
          for (const line of run.failures) console.log(`      ${line}`);
        }
      }
    }
  } finally {
    await proxy?.stop();
    await remote?.stop();
  }
} finally {
  await server.stop();
}
const remote = runs.filter((r) => r.latency && r.exitCode === 0);
if (latency > 0) {
  const best = remote.reduce<Run | undefined>((a, b) => (!a || b.seconds < a.seconds ? b : a), undefined);
  console.log(best ? `fastest passing run ${latency} ms away: ${best.seconds.toFixed(1)} s (${best.chosen}) (goal: under ${LATENCY_GOAL_SECONDS} s at 50 ms) ${positionals.length ? 'no verdict: named features' : latency !== 50 ? 'no verdict: the goal is for 50 ms' : best.seconds < LATENCY_GOAL_SECONDS ? 'met' : 'NOT met'}` : `no run ${latency} ms away passed, so no figure`);
  if (!best) process.exitCode = 1;
}
const passing = runs.filter((r) => !r.latency && r.exitCode === 0);
if (passing.length === 0) {
  console.log(`no run passed, so no figure (goal: under ${GOAL_SECONDS} s)`);
  process.exitCode = 1;
} else {
  const best = passing.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const verdict = positionals.length ? 'no verdict: the goal is for the whole suite, this run named features' : best.seconds < GOAL_SECONDS ? 'met' : 'NOT met';
  console.log(`fastest passing run: ${best.seconds.toFixed(1)} s with --parallel ${best.parallel} (goal: under ${GOAL_SECONDS} s for the whole suite) ${verdict}`);
  // Where that run's time went: scenario time summed per feature (over all workers), and the slowest scenarios.
  const total = best.scenarios.reduce((sum, c) => sum + c.seconds, 0);
  const byFeature = new Map<string, number>();
  for (const c of best.scenarios) byFeature.set(c.feature, (byFeature.get(c.feature) ?? 0) + c.seconds);
  console.log(`  ${best.scenarios.length} scenarios took ${total.toFixed(1)} s of scenario time in all; by feature:`);
  for (const [feature, seconds] of [...byFeature].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`    ${seconds.toFixed(1).padStart(6)} s  ${feature}`);
  console.log('  slowest scenarios:');
  for (const c of [...best.scenarios].sort((a, b) => b.seconds - a.seconds).slice(0, 8)) console.log(`    ${c.seconds.toFixed(2).padStart(6)} s  ${c.feature}: ${c.name.slice(0, 100)}`);
}
