// Proves the suite can fail: for every rule the kit can break, runs that rule's scenarios against a server
// broken for it and requires them to fail. A broken server that passes means the scenario checks nothing, and
// fails this run. The broken servers are the table of conformance/broken/index.ts, each the reference composed
// with one seam changed (or behind a proxy that breaks what a client sees), started by conformance/broken/start.ts.
// This file reaches the reference only through that table.
// Each rule's run is the kit's own CLI (conformance/cli.ts, the same command as `npm run conformance -- --break
// <rule>`) pointed at that rule's broken server, which this process starts and stops: the reference's modules
// load once here rather than once per rule, and --jobs rules run at a time (default 2, the cores of the machine
// the goal of issue 16 names); each CLI writes its reports to a directory of its own, and the verdicts print in
// the table's order whatever order the runs end in.
// With --properties the fast-check properties that name the rule (`rule:<id>` in a test's name) run against the
// same broken server too (cli.ts --rules --properties), so a rule checked by a property is proved by it as well;
// off by default, since the rail model alone takes a minute.
//
//   npm run prove-checks [-- [--properties] [--jobs N] rule-id ...]
import './lib/require-node.js';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BROKEN } from './broken/index.js';
import { startBroken } from './broken/start.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

const all = Object.keys(BROKEN);
const { values, positionals: named } = (() => {
  try {
    return parseArgs({ options: { properties: { type: 'boolean' }, jobs: { type: 'string', default: '2' } }, allowPositionals: true });
  } catch (error) {
    console.error(`prove-checks: ${(error as Error).message}`);
    process.exit(2);
  }
})();
const withProperties = values.properties === true;
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`prove-checks: --jobs takes a whole number of at least 1, got ${JSON.stringify(values.jobs)}`);
  process.exit(2);
}
const rules = named.length ? named : all;
const unknown = rules.filter((r) => !all.includes(r));
if (unknown.length) {
  console.error(`prove-checks: ${unknown.join(', ')} cannot be broken here; breakable: ${all.join(', ')}`);
  process.exit(2);
}

/** The suite, limited to the rule's scenarios, against a server broken for it (started here, stopped after). */
async function run(rule: string): Promise<{ code: number; out: string }> {
  let server: Awaited<ReturnType<typeof startBroken>> | undefined;
  let reportDir: string | undefined;
  try {
    server = await startBroken([rule]);
    reportDir = await mkdtemp(join(tmpdir(), 'site-mcp-prove-'));
    const select = withProperties ? ['--rules', rule, '--properties'] : ['--tags', `@rule:${rule}`];
    // A broken server must fail its rule outright, as the CLI's --break has it: no expected failure applies, so the
    // run is judged by an empty list rather than the reference's own (conformance/expected-failures.yaml).
    const noExpectedFailures = join(reportDir, 'no-expected-failures.yaml');
    await writeFile(noExpectedFailures, 'expected: []\n');
    const args = ['--declaration', 'conformance/declarations/reference.yaml', '--parallel', '1', '--report-dir', reportDir, '--expected-failures', noExpectedFailures, ...select];
    // The target through the environment, as the CLI documents, so the secret is on no command line.
    const env = { ...process.env, SITE_MCP_URL: server.url, SITE_MCP_FIXTURES_SECRET: server.fixturesSecret };
    const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const caught = code !== 0 && new RegExp(`^${rule}\\s+failed`, 'm').test(out);
  const checked = new RegExp(`^${rule}\\s`, 'm').test(out);
  console.log(`${rule.padEnd(40)} ${caught ? 'caught' : checked ? 'NOT CAUGHT: the broken server passed' : 'NOT CAUGHT: no scenario checks it'}`);
  if (!caught) {
    escaped++;
    console.log(out.split('\n').slice(-15).join('\n'));
    console.log(`replay: npm run conformance -- --break ${rule} ${withProperties ? `--rules ${rule} --properties` : `--tags @rule:${rule}`}`);
  }
}
console.log(`\n${rules.length - escaped} passed, ${escaped} failed (${((performance.now() - started) / 1000).toFixed(0)} s, --jobs ${jobs})`);
process.exit(escaped === 0 ? 0 : 1);
