// `npm run conformance -- [--url U --fixtures-secret S] [--tags EXPR] [--name RE] [--seed N] [--parallel N] [--break RULE]`
// Runs the Gherkin features against a server and reports per rule. Without --url it starts the reference
// server on loopback and stops it afterwards. Exits non-zero on any unexpected failure, and on an expected
// failure that now passes.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import { resolveTarget, startReferenceServer } from './lib/target.js';
import { startDnsStub } from './lib/dns-stub.js';
import { FixturesClient } from './lib/fixtures-client.js';
import { loadExpectedFailures, printReport, ruleResults, scenarioResults } from './lib/report.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'fixtures-secret': { type: 'string' },
    tags: { type: 'string' },
    name: { type: 'string', multiple: true },
    seed: { type: 'string' },
    parallel: { type: 'string', default: '2' },
    'include-wip': { type: 'boolean' },
    // Starts the reference server deliberately breaking these rules (proves checks can fail; see prove-checks.ts).
    break: { type: 'string', multiple: true },
  },
});

const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
process.env.SITE_MCP_SEED = seed;
const target = values.break?.length
  ? await startReferenceServer(values.break.flatMap((rule) => ['--break-rule', rule]))
  : await resolveTarget({ url: values.url, fixturesSecret: values['fixtures-secret'] });
let exitCode = 1;
let dns: Awaited<ReturnType<typeof startDnsStub>> | undefined;
try {
  process.env.SITE_MCP_URL = target.url;
  process.env.SITE_MCP_FIXTURES_SECRET = target.fixturesSecret;
  // One DNS stub for the run; scenarios add records to its zone directory, the target resolves through it.
  const zoneDir = await mkdtemp(join(tmpdir(), 'site-mcp-zone-'));
  dns = await startDnsStub(zoneDir);
  process.env.SITE_MCP_DNS_ZONE_DIR = zoneDir;
  await new FixturesClient(target.url, target.fixturesSecret).dnsResolver(dns.server);
  // Workers are child processes: they load the TypeScript step definitions through tsx as well.
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim();
  await mkdir(join(repo, 'reports'), { recursive: true });
  const messages = join(repo, 'reports', 'cucumber-messages.ndjson');
  const tags = [values.tags, values['include-wip'] ? undefined : 'not @wip'].filter(Boolean).map((t) => `(${t})`).join(' and ');
  const { runConfiguration } = await loadConfiguration({
    provided: {
      paths: [join(repo, 'features/**/*.feature')],
      import: [join(repo, 'features/support/**/*.ts'), join(repo, 'features/steps/**/*.ts')],
      format: ['summary', `message:${messages}`],
      tags,
      name: values.name ?? [],
      parallel: Number(values.parallel),
      strict: true,
    },
  });
  console.log(`conformance target ${target.url} · seed ${seed}${tags ? ` · tags ${tags}` : ''}`);
  // Collected in-process (not re-read from the message file, which may still be flushing).
  const envelopes: string[] = [];
  const { success } = await runCucumber(runConfiguration, undefined, (envelope) => envelopes.push(JSON.stringify(envelope)));
  const scenarios = scenarioResults(envelopes.join('\n'));
  // Rules the fast-check properties name (run by vitest, not here) count as checked in the coverage line.
  const propertyRules = new Set(
    readdirSync(join(repo, 'conformance/properties'))
      .filter((f) => f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(join(repo, 'conformance/properties', f), 'utf8').matchAll(/rule:([a-z0-9]+(?:-[a-z0-9]+)*)/g)].map((m) => m[1]!)),
  );
  const problems = printReport(ruleResults(scenarios), loadExpectedFailures(join(repo, 'conformance/expected-failures.yaml')), propertyRules);
  for (const s of scenarios.filter((x) => x.status === 'failed')) console.log(`replay: npm run conformance -- --seed ${seed} --name "^${s.name.replace(/["\\^$.*+?()[\]{}|]/g, '\\$&')}$"`);
  console.log(`\n${scenarios.filter((s) => s.status === 'passed').length} passed, ${scenarios.filter((s) => s.status === 'failed').length} failed`);
  // Every scenario must name its rules; an untagged failure counts on its own.
  const untagged = scenarios.filter((s) => s.status === 'failed' && !s.tags.some((t) => t.startsWith('@rule:'))).length;
  exitCode = problems + untagged === 0 && scenarios.length > 0 ? 0 : 1;
  void success;
} finally {
  await dns?.stop();
  await target.stop();
}
process.exit(exitCode);
