// What one reference server costs to start: `npm test` starts about twenty (the features run, the
// variants, the crash, browser, OAuth and CLI tests), so its start-up CPU is paid that many times. Starts the
// reference as conformance/lib/target.ts does (node --import tsx/esm reference/main.ts in test mode, an empty data
// directory, no seed) --runs times, one after another, and prints each start's time from spawn to its "listening on"
// line and the CPU (user + system) the process used until then, from /proc; then the medians. No goal of its own:
// the figure feeds `npm run bench -- test-time`.
//
//   npm run bench -- start-up [--runs 5] [--checkout DIR]
//
// --checkout DIR starts another checkout's reference (a `git worktree add` of an earlier commit, with node_modules
// linked) under this benchmark, for a before/after figure from one machine and one load.
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startReference } from './lib/reference-process.js';
import { processCpu } from './lib/proc.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '5' }, checkout: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 100) {
  console.error('start-up: --runs takes a whole number from 1 to 100.');
  process.exit(2);
}
const repo = values.checkout ? resolve(values.checkout) : fileURLToPath(new URL('../', import.meta.url));

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const { user, system } = processCpu(pid);
  return user + system;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const walls: number[] = [];
const cpus: number[] = [];
console.log(`reference start-up of ${repo}, spawn to "listening on", ${runs} runs, node ${process.version}, load ${loadavg()[0]!.toFixed(1)}`);
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const server = await startReference({ checkout: repo, quiet: true });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(server.pid);
  await server.stop();
  walls.push(wall);
  cpus.push(cpu);
  console.log(`  run ${i + 1}: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU`);
}
console.log(`median ${median(walls).toFixed(2)} s wall, ${median(cpus).toFixed(2)} s CPU per start (no goal of its own; npm test's goal is under 120 s)`);
