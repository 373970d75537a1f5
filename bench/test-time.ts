// How long `npm test` takes, phase by phase (goal: under 2 minutes on 2 cores, without dropping a
// check). Runs the phases of package.json's `test` script as `npm test` does (typecheck, then unit, then features
// and prove-checks side by side, as its `test:checks` does), each as the same command (typecheck: tsc --noEmit;
// unit: vitest run; features: the kit's CLI against a fresh reference with the reference's declaration;
// prove-checks), and prints each phase's wall time, its CPU time (user + system of the phase and every process it
// started, from the shell's `times`) and the load average before and after, then the total against the goal. The
// vitest phase writes vitest's JSON report, from which the slowest files are printed (their time from start to end,
// while other files ran beside them); the features phase prints the CLI's summary. Reports go to a temporary
// directory, never to reports/. A benchmark: it prints figures and asserts nothing; the exit code is 1 only when a
// phase failed (then the total is no figure), 2 for a wrong command line.
//
//   npm run bench -- test-time [--phases typecheck,unit,features,prove-checks] [--top 12] [-- <vitest file filter>...]
//
// Vitest file filters (after --) time only those files (no verdict then). On a shared machine the load average
// says how much of the wall time is other people's work: compare figures only at similar load.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';

const GOAL_SECONDS = 120;
const PHASE_TIMEOUT_MS = 30 * 60_000;
const PHASES = ['typecheck', 'unit', 'features', 'prove-checks'] as const;
type Phase = (typeof PHASES)[number];
// The stages of `npm test`, one after another; the phases of a stage run side by side (package.json test:checks:
// the features run one scenario at a time and prove-checks' two workers wait on their servers, so neither keeps
// both cores busy alone, while the unit phase does).
const STAGES: Phase[][] = [['typecheck'], ['unit'], ['features', 'prove-checks']];

const { values, positionals } = benchArgs(import.meta.url, {
  options: { phases: { type: 'string', default: PHASES.join(',') }, top: { type: 'string', default: '12' } },
  allowPositionals: true,
});
const chosen = values.phases.split(',').filter(Boolean);
const unknown = chosen.filter((p) => !(PHASES as readonly string[]).includes(p));
const top = Number(values.top);
if (unknown.length || !chosen.length || !Number.isInteger(top) || top < 0) {
  console.error(`test-time: --phases takes some of ${PHASES.join(',')} separated by commas, --top a whole number.`);
  process.exit(2);
}
const repo = fileURLToPath(new URL('../', import.meta.url));
const bin = (path: string) => join(repo, 'node_modules', path);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

interface Timed {
  phase: Phase;
  seconds: number;
  cpu: number;
  exitCode: number | null;
  loadBefore: string;
  loadAfter: string;
  tail: string;
}

/** The phase's command line (node and its arguments), with its reports in `dir`. */
function command(phase: Phase, dir: string): string[] {
  const node = process.execPath;
  switch (phase) {
    case 'typecheck':
      return [node, bin('typescript/bin/tsc'), '--noEmit'];
    case 'unit':
      return [node, bin('vitest/vitest.mjs'), 'run', ...positionals, '--reporter=default', '--reporter=json', `--outputFile.json=${join(dir, 'vitest.json')}`];
    case 'features':
      return [node, '--import', 'tsx/esm', 'conformance/cli.ts', '--declaration', 'conformance/declarations/reference.yaml', '--parallel', '1', '--report-dir', dir];
    case 'prove-checks':
      return [node, '--import', 'tsx/esm', 'conformance/prove-checks.ts'];
  }
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs one phase under sh, whose `times` afterwards gives the CPU of everything the phase started and waited for. */
async function timed(phase: Phase, dir: string): Promise<Timed> {
  const loadBefore = load();
  const script = `${command(phase, dir).map(quote).join(' ')}; code=$?; echo; echo "@@times"; times; exit $code`;
  const t0 = performance.now();
  const child = spawn('/bin/sh', ['-c', script], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-200_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const killer = setTimeout(() => child.kill('SIGKILL'), PHASE_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  clearTimeout(killer);
  const seconds = (performance.now() - t0) / 1000;
  // `times` prints the shell's own user and system time, then its children's: "0m1.250s 0m0.310s".
  const lines = out.slice(out.lastIndexOf('@@times')).split('\n');
  const children = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines[2] ?? '');
  const cpu = children ? Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]) : NaN;
  const shown = out.slice(0, out.lastIndexOf('@@times')).trimEnd();
  return { phase, seconds, cpu, exitCode, loadBefore, loadAfter: load(), tail: shown.split('\n').slice(-12).join('\n') };
}

/** Each test file's time from vitest's JSON report, slowest first. */
function vitestFiles(file: string): { file: string; seconds: number; tests: number }[] {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as { testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[] };
  return report.testResults.map((r) => ({ file: relative(repo, r.name), seconds: (r.endTime - r.startTime) / 1000, tests: r.assertionResults.length })).sort((a, b) => b.seconds - a.seconds);
}

const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-test-time-'));
const results: Timed[] = [];
/** The wall time of each stage: the total of `npm test` is their sum, not the phases' sum. */
const stageSeconds: number[] = [];
try {
  console.log(`npm test, phase by phase (${chosen.join(', ')}${positionals.length ? `; vitest files ${positionals.join(' ')}` : ''}), node ${process.version}, ${availableParallelism()} cores, load ${load()}`);
  for (const stage of STAGES) {
    const phases = stage.filter((phase) => chosen.includes(phase));
    if (!phases.length) continue;
    const t0 = performance.now();
    const runs = await Promise.all(phases.map((phase) => timed(phase, dir)));
    stageSeconds.push((performance.now() - t0) / 1000);
    for (const run of runs) {
      const phase = run.phase;
      results.push(run);
      console.log(`  ${phase.padEnd(13)} ${run.seconds.toFixed(1).padStart(7)} s wall, ${run.cpu.toFixed(1).padStart(6)} s CPU, exit ${run.exitCode}, load ${run.loadBefore} → ${run.loadAfter}`);
      if (run.exitCode !== 0) console.log(run.tail.replace(/^/gm, '      '));
      if (phase === 'unit') {
        const files = vitestFiles(join(dir, 'vitest.json'));
        const summed = files.reduce((sum, f) => sum + f.seconds, 0);
        console.log(`      ${files.length} files, ${files.reduce((n, f) => n + f.tests, 0)} tests, ${summed.toFixed(0)} s of file time in all; slowest:`);
        for (const f of files.slice(0, top)) console.log(`      ${f.seconds.toFixed(1).padStart(7)} s  ${f.file} (${f.tests} tests)`);
      }
      if (phase === 'features') {
        const summary = /(\d+ scenarios? passed, \d+ failed[^\n]*)/.exec(run.tail)?.[1];
        if (summary) console.log(`      ${summary}`);
      }
      if (phase === 'prove-checks') {
        const summary = /(\d+ passed, \d+ failed[^\n]*)/.exec(run.tail)?.[1];
        if (summary) console.log(`      ${summary}`);
      }
    }
    if (runs.length > 1) console.log(`  ${phases.join(' and ')} side by side: ${stageSeconds.at(-1)!.toFixed(1)} s wall`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
const total = stageSeconds.reduce((sum, seconds) => sum + seconds, 0);
const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
if (results.some((r) => r.exitCode !== 0)) {
  console.log(`a phase failed, so no figure (goal: npm test under ${GOAL_SECONDS} s)`);
  process.exitCode = 1;
} else {
  const whole = chosen.length === PHASES.length && !positionals.length;
  const verdict = whole ? (total < GOAL_SECONDS ? 'met' : 'NOT met') : 'no verdict: the goal is for every phase and every file';
  console.log(`total ${total.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (${(cpu / availableParallelism()).toFixed(1)} s if every core were busy throughout); goal: under ${GOAL_SECONDS} s on 2 cores: ${verdict}`);
}
