// Proves the suite can fail: for every rule the kit can break, runs that rule's scenarios against a server
// broken for it and requires them to fail. A broken server that passes means the scenario checks nothing, and
// fails this run. Two kinds of broken server:
//   - the reference started with `--break-rule <id>` (reference/domain/breaks.ts), for behaviour inside it;
//   - the reference behind a proxy that breaks what a client sees (conformance/variants/variant-proxy.ts), e.g. a
//     tools/list that leaves a working tool out.
//
//   npm run prove-checks [-- rule-id ...]
import './lib/require-node.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BREAKABLE } from '../reference/domain/breaks.js';
import { BROKEN } from './broken/index.js';
import { startReferenceServer } from './lib/target.js';
import { loadJson } from '../spec/index.js';
import { startVariantProxy, type VariantOptions } from './variants/variant-proxy.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** Rules broken from outside: the proxy options that break each one. */
const BROKEN_BY_PROXY: Record<string, VariantOptions> = {
  'tool-catalogue-exact': { dropListedTool: 'confirm_pending_action' },
  'migrate-result-relayed': { dropResultField: { tool: 'migrate_site_from_url', field: 'pagesAwaitingCapture' } },
  'tools-since': { dropListedTool: 'generate_image' },
  'state-names': { renameStatuses: true },
  'app-pages-frame-protection': { dropSecurityHeaders: true },
  'public-site-security-headers': { dropSecurityHeaders: true },
  'dashboard-connect-lists-scopes': { dropScopeCheckboxes: true },
  'pair-start-throttled-per-address': { pairStartFromFreshAddresses: true },
  'tool-arguments-bounded': { cutArgumentsTo: loadJson<{ toolArguments: { maxDepth: number; maxNodes: number } }>('limits.json').toolArguments },
  'activity-shown-in-developers': { hideActivity: true },
  'domain-foreign-hostname-same-time': { answerTakenHostnamesUnprobed: true },
};

const all = [...Object.keys(BROKEN), ...BREAKABLE, ...Object.keys(BROKEN_BY_PROXY)];
const rules = process.argv.slice(2).length ? process.argv.slice(2) : all;
const unknown = rules.filter((r) => !all.includes(r));
if (unknown.length) {
  console.error(`prove-checks: ${unknown.join(', ')} cannot be broken here; breakable: ${all.join(', ')}`);
  process.exit(2);
}

function cli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', '--declaration', 'conformance/declarations/reference.yaml', '--parallel', '1', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function run(rule: string): Promise<{ code: number; out: string }> {
  const proxyOptions = BROKEN_BY_PROXY[rule];
  if (!proxyOptions) return cli(['--break', rule, '--tags', `@rule:${rule}`]);
  const reference = await startReferenceServer();
  const proxy = await startVariantProxy(reference.url, proxyOptions);
  try {
    return await cli(['--url', proxy.url, '--fixtures-secret', reference.fixturesSecret, '--tags', `@rule:${rule}`]);
  } finally {
    await proxy.stop();
    await reference.stop();
  }
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
