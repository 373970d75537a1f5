// Proves the suite can fail: for every rule the reference server can deliberately break
// (reference/domain/breaks.ts), runs that rule's scenarios against a server broken for it and requires them
// to fail. A broken server that passes means the scenario checks nothing, and fails this run.
//
//   npm run prove-checks [-- rule-id ...]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BREAKABLE } from '../reference/domain/breaks.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const rules = process.argv.slice(2).length ? process.argv.slice(2) : [...BREAKABLE];

function run(rule: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', '--break', rule, '--declaration', 'conformance/declarations/reference.yaml', '--tags', `@rule:${rule}`, '--parallel', '1'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
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
