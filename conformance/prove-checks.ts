// Proves the suite can fail: for every rule the kit can break, runs that rule's scenarios against a server
// broken for it and requires them to fail. A broken server that passes means the scenario checks nothing, and
// fails this run. The broken servers are the table of conformance/broken/index.ts, each the reference composed
// with one seam changed (or behind a proxy that breaks what a client sees), started by conformance/broken/start.ts.
// This file reaches the reference only through that table.
// Each rule's run is what the kit's CLI does for `npm run conformance -- --break <rule> --tags @rule:<rule>`
// (the reference's declaration, no expected failure, the same set-up and report), done by one of --jobs long-lived
// workers (conformance/prove-worker.ts, default 2, the cores bench/README.md's goals assume), each of
// which loads Cucumber and the steps once and runs one rule at a time in its own process, against that rule's
// broken server, which this process starts and stops: the reference's modules load once here, Cucumber's once per
// worker, rather than once per rule. The verdicts print in the table's order whatever order the runs end in.
// --control runs every rule's scenarios in the same workers against the correct reference (a fresh one per rule,
// started the same way) and requires them all to pass: a run that left state behind in a worker would show here.
// With --properties the fast-check properties that name the rule (`rule:<id>` in a test's name) run against the
// same broken server too (each rule through the CLI itself, cli.ts --rules --properties, since the properties run
// in a vitest child anyway), so a rule checked by a property is proved by it as well; off by default, since the
// rail model alone takes a minute.
// --source-only runs the workers without the reference's declaration, as an implementer's first run: each broken
// server must still be caught, except a decision rule's (not applicable) and the known blind spots listed with their
// reasons in conformance/source-only-blind-spots.yaml, a list that may only shrink (npm test runs both modes).
//
//   npm run prove-checks [-- [--properties | --control | --source-only] [--jobs N] rule-id ...]
import './lib/require-node.js';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from './lib/cli-args.js';
import type { startBroken as StartBroken } from './broken/start.js';
import type { ProveAnswer, ProveRequest } from './prove-worker.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

// The options are checked before the broken servers' table (which loads the reference) is imported: a wrong option
// costs a fraction of a second.
const { values, positionals: named } = parseCommandLine({
  command: 'prove-checks',
  sourceFile: fileURLToPath(import.meta.url),
  options: { properties: { type: 'boolean' }, control: { type: 'boolean' }, 'source-only': { type: 'boolean' }, jobs: { type: 'string', default: '2' } },
  allowPositionals: true,
});
const withProperties = values.properties === true;
const control = values.control === true;
// Without the reference's declaration, as an implementer's first run: a broken server must still be caught, except
// for a decision rule (our value, checked only for a target that declares it), which is then not applicable.
const sourceOnly = values['source-only'] === true;
if (sourceOnly && withProperties) usageError('prove-checks: --source-only runs the scenarios in the workers; it does not take --properties');
if (control && withProperties) usageError('prove-checks: --control runs the scenarios in the workers; it does not take --properties');
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1) usageError(`prove-checks: --jobs takes a whole number of at least 1, got ${JSON.stringify(values.jobs)}`);
const { BROKEN } = await import('./broken/index.js');
const { loadRules } = await import('../spec/index.js');
const decisions = new Set(loadRules().filter((r) => r.decision).map((r) => r.id));
// What a source-only run is known not to catch, with why (conformance/source-only-blind-spots.yaml).
const { parse: parseYaml } = await import('yaml');
const { readFileSync } = await import('node:fs');
const blindSpots = new Map(
  (parseYaml(readFileSync(join(repo, 'conformance/source-only-blind-spots.yaml'), 'utf8')) as { blindSpots: { rule: string; reason: string }[] }).blindSpots.map((b) => [b.rule, b.reason]),
);
const { startBroken } = await import('./broken/start.js');
// One visual-capture engine for every broken server of this run: each server launching a Chromium of its own for
// its migration scenarios would pay for a launch each time. Captures are independent
// (each carries its migration's own network; nothing of a page stays for the next, reference/infra/capture.ts).
const { captureEngine } = await import('../reference/services.js');
const capture = captureEngine({ chromium: undefined }) ?? undefined;
const all = Object.keys(BROKEN);
const rules = named.length ? named : all;
const unknown = rules.filter((r) => !all.includes(r));
if (unknown.length) usageError(`prove-checks: ${unknown.join(', ')} cannot be broken here; breakable: ${all.join(', ')}`);

interface Worker { child: ChildProcess; ready: Promise<unknown>; dead?: string; answer?: (answer: ProveAnswer) => void }
const workers: Worker[] = [];
const idle: Worker[] = [];

/** A worker (conformance/prove-worker.ts) in a child process; ready once it has loaded Cucumber and the steps. */
function startWorker(): Worker {
  const env = { ...process.env, SITE_MCP_PROVE_SOURCE_ONLY: sourceOnly ? '1' : '' };
  const child = fork(join(repo, 'conformance/prove-worker.ts'), [], { cwd: repo, env, execArgv: ['--import', 'tsx/esm'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let tail = '';
  const keep = (d: Buffer) => (tail = (tail + String(d)).slice(-5000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const worker: Worker = { child, ready: undefined as unknown as Promise<unknown> };
  worker.ready = new Promise((resolve) => {
    child.once('message', resolve);
    child.once('exit', resolve);
  });
  child.on('message', (answer: ProveAnswer) => {
    if (answer.id > 0) worker.answer?.(answer);
  });
  child.once('exit', (code, signal) => {
    worker.dead = `prove-checks: its worker ended (${signal ?? `exit ${code}`}):\n${tail}`;
    worker.answer?.({ id: -1, code: 1, out: worker.dead });
  });
  workers.push(worker);
  return worker;
}

let nextId = 1;
/** One rule's run in a worker: the exit code and the text the CLI would give for it. */
async function ask(worker: Worker, request: Omit<ProveRequest, 'id'>): Promise<{ code: number; out: string }> {
  await worker.ready;
  if (worker.dead) return { code: 1, out: worker.dead };
  const id = nextId++;
  return new Promise((resolve) => {
    worker.answer = (answer) => {
      worker.answer = undefined;
      resolve(answer);
    };
    worker.child.send({ id, ...request } satisfies ProveRequest);
  });
}

/** The rule's scenarios in a worker, against a server broken for it (or, with --control, the correct reference). */
async function inWorker(rule: string): Promise<{ code: number; out: string }> {
  let worker = idle.pop();
  if (!worker || worker.dead) worker = startWorker();
  let server: Awaited<ReturnType<typeof StartBroken>> | undefined;
  try {
    server = await startBroken(control ? [] : [rule], { capture });
    return await ask(worker, { rule, url: server.url, fixturesSecret: server.fixturesSecret });
  } catch (error) {
    return { code: 1, out: `prove-checks: the run for ${rule} failed to start: ${(error as Error).message}` };
  } finally {
    await server?.stop();
    idle.push(worker);
  }
}

/** With --properties: the kit's CLI itself, limited to the rule's scenarios and properties, against a server broken for it. */
async function throughCli(rule: string): Promise<{ code: number; out: string }> {
  let server: Awaited<ReturnType<typeof StartBroken>> | undefined;
  let reportDir: string | undefined;
  try {
    server = await startBroken([rule], { capture });
    reportDir = await mkdtemp(join(tmpdir(), 'site-mcp-prove-'));
    // A broken server must fail its rule outright, as the CLI's --break has it: no expected failure applies, so the
    // run is judged by an empty list rather than the reference's own (conformance/expected-failures.yaml).
    const noExpectedFailures = join(reportDir, 'no-expected-failures.yaml');
    await writeFile(noExpectedFailures, 'expected: []\n');
    const args = ['--declaration', 'conformance/declarations/reference.yaml', '--parallel', '1', '--report-dir', reportDir, '--expected-failures', noExpectedFailures, '--rules', rule, '--properties'];
    // The target through the environment, as the CLI documents, so the secret is on no command line.
    const env = { ...process.env, SITE_MCP_URL: server.url, SITE_MCP_FIXTURES_SECRET: server.fixturesSecret };
    const child = spawn(process.execPath, ['--import', 'tsx/esm', 'conformance/cli.ts', ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    return { code, out };
  } catch (error) {
    return { code: 1, out: `prove-checks: the run for ${rule} failed to start: ${(error as Error).message}` };
  } finally {
    await server?.stop();
    if (reportDir) await rm(reportDir, { recursive: true, force: true });
  }
}
const run = withProperties ? throughCli : inWorker;

// A bounded pool: at most `jobs` runs at once, each started as soon as a slot frees; verdicts read in rule order.
const started = performance.now();
let free = jobs;
const waiting: (() => void)[] = [];
async function inPool<T>(work: () => Promise<T>): Promise<T> {
  if (free > 0) free--;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const nextInLine = waiting.shift();
    if (nextInLine) nextInLine();
    else free++;
  }
}
const results = rules.map((rule) => inPool(() => run(rule)));

let escaped = 0;
for (const [index, rule] of rules.entries()) {
  const { code, out } = await results[index]!;
  let ok: boolean;
  const status = new RegExp(`^${rule}\\s+(\\S+)`, 'm').exec(out)?.[1];
  if (control) {
    // The correct reference must pass the rule, exactly as the CLI reports it: verified (a scenario of it ran to
    // the end, nothing skipped, none failed); without the declaration, failed by none.
    ok = code === 0 && (sourceOnly ? status !== 'failed' : status === 'verified');
    console.log(`${rule.padEnd(40)} ${ok ? `passed${sourceOnly ? ` (${status})` : ''}` : 'FAILED against the correct reference (not verified)'}`);
  } else if (sourceOnly && decisions.has(rule) && status !== 'failed') {
    // Our value of a choice the source leaves open: no target is judged on it unless it declares it.
    ok = true;
    console.log(`${rule.padEnd(40)} not applicable: a decision, checked only for a target that declares it (${status ?? 'no verdict'})`);
  } else if (sourceOnly && blindSpots.has(rule)) {
    // A known blind spot must stay one until it is mended, then leave the list.
    ok = status !== 'failed';
    console.log(`${rule.padEnd(40)} ${ok ? `blind without a declaration (${status}): ${blindSpots.get(rule)}` : 'caught: remove it from conformance/source-only-blind-spots.yaml'}`);
  } else {
    // Only a failed verdict is a catch: a run whose scenarios were not checked (or only partly) caught nothing.
    ok = code !== 0 && status === 'failed';
    console.log(`${rule.padEnd(40)} ${ok ? 'caught' : status === 'verified' ? 'NOT CAUGHT: the broken server passed' : status ? `NOT CAUGHT: its scenarios were ${status}` : 'NOT CAUGHT: no scenario checks it'}`);
  }
  if (!ok) {
    escaped++;
    console.log(out.split('\n').slice(-15).join('\n'));
    console.log(`replay: npm run conformance -- ${control ? '' : `--break ${rule} `}${withProperties ? `--rules ${rule} --properties` : `--tags @rule:${rule}`}`);
  }
}
// The workers end, and are waited for, before this process does (so a timing of this command counts their CPU too).
await Promise.all(
  workers.map((worker) => {
    if (worker.dead) return undefined;
    const ended = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill();
    return ended;
  }),
);
await capture?.close();
console.log(`\n${rules.length - escaped} passed, ${escaped} failed (${((performance.now() - started) / 1000).toFixed(0)} s, --jobs ${jobs}${control ? ', control: the correct reference' : ''})`);
process.exit(escaped === 0 ? 0 : 1);
