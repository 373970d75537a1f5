// Proves the suite can fail: for every rule the kit can break, runs that rule's scenarios against a server
// broken for it and requires them to fail. A broken server that passes means the scenario checks nothing, and
// fails this run. The broken servers are the table of conformance/broken/index.ts, each the reference composed
// with one seam changed (or behind a proxy that breaks what a client sees); the CLI's --break starts one
// (conformance/broken/serve.ts). This file reaches the reference only through that table.
// With --properties the fast-check properties that name the rule (`rule:<id>` in a test's name) run against the
// same broken server too (cli.ts --rules --properties), so a rule checked by a property is proved by it as well;
// off by default, since the rail model alone takes a minute.
//
//   npm run prove-checks [-- [--properties] rule-id ...]
import './lib/require-node.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BROKEN } from './broken/index.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

const all = Object.keys(BROKEN);
const given = process.argv.slice(2);
const withProperties = given.includes('--properties');
const named = given.filter((arg) => arg !== '--properties');
const rules = named.length ? named : all;
const unknown = rules.filter((r) => !all.includes(r));
if (unknown.length) {
  console.error(`prove-checks: ${unknown.join(', ')} cannot be broken here; breakable: ${all.join(', ')}`);
  process.exit(2);
}

/** The suite, limited to the rule's scenarios, against a server broken for it. */
function run(rule: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const select = withProperties ? ['--rules', rule, '--properties'] : ['--tags', `@rule:${rule}`];
    const args = ['--declaration', 'conformance/declarations/reference.yaml', '--parallel', '1', '--break', rule, ...select];
    const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

let escaped = 0;
for (const rule of rules) {
  const { code, out } = await run(rule);
  const caught = code !== 0 && new RegExp(`^${rule}\\s+failed`, 'm').test(out);
  const checked = new RegExp(`^${rule}\\s`, 'm').test(out);
  console.log(`${rule.padEnd(40)} ${caught ? 'caught' : checked ? 'NOT CAUGHT: the broken server passed' : 'NOT CAUGHT: no scenario checks it'}`);
  if (!caught) {
    escaped++;
    console.log(out.split('\n').slice(-15).join('\n'));
  }
}
console.log(`\n${rules.length - escaped} passed, ${escaped} failed`);
process.exit(escaped === 0 ? 0 : 1);
