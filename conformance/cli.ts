// The conformance CLI: runs the Gherkin features (and, with --properties, the fast-check properties) against
// one target and reports per rule.
//
//   site-mcp conformance [--url U --fixtures-secret S] [--declaration FILE] [--rules ID,ID...] [--tags EXPR]
//                        [--name RE]... [--seed N] [--parallel N] [--include-wip] [--properties]
//                        [--expected-failures FILE] [--report-dir DIR] [--vitest-report FILE] [--dry-run]
//                        [--break RULE]... [--send-non-public-addresses] [--call-timeout S] [--shard I/N]
//                        [--protocol 2025-11-25|2026-07-28|all] [features/x.feature[:LINE]]...
//   (in a checkout of the kit: npm run conformance -- …)
//
// --url U, --fixtures-secret S  the target and the secret of its fixtures protocol (or SITE_MCP_URL and
//                        SITE_MCP_FIXTURES_SECRET); without them the reference server is started on loopback.
// --declaration FILE     the target's implementation declaration (spec/schemas/declaration.schema.json); without
//                        it only what the source says is checked.
// --rules ID,ID...       only the scenarios (and, with --properties, the properties) that check these rules of
//                        spec/rules; combined with --tags by "and". An unknown rule id, or a rule the kit has no
//                        check for, stops the run with exit 2.
// --tags EXPR, --name RE Cucumber's tag expression and scenario-name filters.
// --seed N               the seed of every random choice in the scenarios and properties (printed on each run).
// --properties           also run the fast-check properties (conformance/properties, through vitest) against the
//                        same target, in the same report.
// --expected-failures FILE  rules the target is known to fail, each with a reason
//                        (spec/schemas/expected-failures.schema.json; none unless given: the reference's own list,
//                        conformance/expected-failures.yaml, is passed by its own run). A listed rule that fails is
//                        "xfail"; one that passes fails the run. A missing or invalid file stops the run with exit 2.
// --call-timeout S       how long one request may go unanswered (default 30 s), the fixtures handshake first (no
//                        answer: exit 2): a target that hangs, answers more than 10 MiB, answers bytes that are not
//                        JSON-RPC or closes the connection fails that step with one sentence naming the call, and
//                        the run goes on.
// --shard I/N            run only the I-th of every N scenarios of the selection, in file order (Cucumber's own
//                        sharding: every shard must run the same checkout and command line but for I; the
//                        properties run in shard 1 only). `site-mcp merge-reports DIR...` joins the shards' reports.
// --protocol ERA         the MCP protocol era to check: 2025-11-25 (initialize first), 2026-07-28 (server/discover,
//                        the version in each request's _meta) or all (default): every era the target offers, each
//                        a run of the features of its own. The kit probes server/discover and initialize first; an
//                        era the target does not offer is reported so, never a failure (the source names no MCP
//                        revision). A scenario tagged @era:<revision> runs only in that era.
// --send-non-public-addresses  also hand the target real private and cloud-metadata addresses to fetch (rule
//                        kit-no-packet-off-machine). Off by default: a target whose SSRF check is broken would fetch
//                        them from its own network. The kit's loopback canaries check the same rules either way, and
//                        a run in a network namespace with only loopback (npm test's) sends them to a loopback target.
//
// Reports, in --report-dir (default site-mcp-reports/ of the folder the command runs in; the run's last line names it): report.html (the kit's page: the verdict per
// source section and rule, source rules and declared decisions apart, each failure with what the kit sent and got
// and a curl line), junit.xml (one testcase per scenario: <skipped> for one not checked in full, <failure> and
// <system-out> with the failed step's requests and answers for a failed one), rules.json (rule → status →
// scenarios), summary.md (for a CI job summary), conformance.json (everything above in one file), cucumber.html
// (Cucumber's own page: its step statuses, every attachment) and cucumber-messages.ndjson (its message stream). A scenario is passed only when every step ran and nothing
// was skipped; a rule is verified only when one of its scenarios passed and none failed (lib/report.ts).
//
// Exit codes: 0 nothing failed (what was not checked is reported, never a failure); 1 a check failed (or an
// expected failure passed); 2 the run could not start
// (a wrong option, an unknown rule id in --rules, a missing or invalid --expected-failures file, an unreachable
// target, no fixtures protocol, a wrong secret, another protocol version, an invalid declaration), with one
// sentence that says what to do.
//
// --break RULE (repeatable) runs against a server deliberately broken for RULE instead (conformance/broken/serve.ts:
// the reference composed as conformance/broken/index.ts says; `npm run prove-checks` runs each one). A broken server
// must fail its rule outright: expected failures do not apply.
//
// Without --url (or SITE_MCP_URL) it starts the reference server on loopback once, passes it to the Cucumber
// workers through SITE_MCP_URL / SITE_MCP_FIXTURES_SECRET, and stops it at the end, whatever happens.
// Exits non-zero on any unexpected failure, any generic check failure, an expected failure that now passes,
// a failed prerequisite (e.g. the fixtures protocol answering 404), or a run in which no scenario ran.

// The command line is checked first (checkCommandLine), with only what each check needs: Cucumber, the checks,
// the report and the servers are imported afterwards, so a refused command costs a fraction of a second instead
// of loading all of them (a refused command is a user's mistake, and answering it should cost next to nothing).
import './lib/require-node.js';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invokedAs, parseCommandLine, usageError } from './lib/cli-args.js';
import type { Target } from './lib/target.js';
import type { EraSummary, ScenarioResult } from './lib/report.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

/**
 * Parses the options and refuses, with one sentence and exit 2, everything that is wrong without a run: an unknown
 * option or a bad value, a declaration or expected-failures file that cannot be used, an unknown or unchecked rule
 * id in --rules. The target itself (reachable, fixtures protocol, secret) is checked by main's prerequisites.
 */
async function checkCommandLine() {
  const { values, positionals } = parseCommandLine({
    command: invokedAs('conformance').replace(/ --$/, ''),
    sourceFile: fileURLToPath(import.meta.url),
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'fixtures-secret': { type: 'string' },
      tags: { type: 'string' },
      name: { type: 'string', multiple: true },
      seed: { type: 'string' },
      // Without it, the target's round trip decides (conformance/lib/round-trip.ts): 2 on this machine, up to 8 far away.
      parallel: { type: 'string' },
      'include-wip': { type: 'boolean', default: false },
      // Also run the fast-check properties (vitest, conformance/properties) against the same target.
      properties: { type: 'boolean', default: false },
      // Merge an existing vitest JSON report (`vitest run --reporter=json --outputFile=…`) into the rule report.
      'vitest-report': { type: 'string' },
      // Check the features for undefined or ambiguous steps without a target.
      'dry-run': { type: 'boolean', default: false },
      // Starts a server deliberately broken for these rules (conformance/broken/; proves checks can fail, see prove-checks.ts).
      break: { type: 'string', multiple: true },
      // The target's implementation declaration (spec/schemas/declaration.schema.json): without it only what the
      // source says is checked, and checks that need a declared choice are reported as not checked.
      declaration: { type: 'string' },
      'report-dir': { type: 'string' },
      rules: { type: 'string' },
      'expected-failures': { type: 'string' },
      'send-non-public-addresses': { type: 'boolean', default: false },
      'call-timeout': { type: 'string' },
      shard: { type: 'string' },
      protocol: { type: 'string', default: 'all' },
    },
  });
  const shard = values.shard === undefined ? undefined : /^([1-9]\d*)\/([1-9]\d*)$/.exec(values.shard);
  if (values.shard !== undefined && (!shard || Number(shard[1]) > Number(shard[2]))) usageError(`--shard takes I/N with 1 <= I <= N, e.g. --shard 2/4, got ${JSON.stringify(values.shard)}.`);

  // The eras of lib/mcp-client.ts (PROTOCOL_ERAS), not imported here: it loads both SDKs.
  if (!['2025-11-25', '2026-07-28', 'all'].includes(values.protocol!)) usageError(`--protocol takes 2025-11-25, 2026-07-28 or all, got ${JSON.stringify(values.protocol)}.`);
  const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
  if (!/^\d+$/.test(seed)) usageError(`--seed takes a non-negative integer, got ${JSON.stringify(seed)}.`);
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  if (parallel !== undefined && (!Number.isInteger(parallel) || parallel < 1)) usageError(`--parallel takes a positive integer, got ${JSON.stringify(values.parallel)}.`);
  if (values['call-timeout'] !== undefined && !(Number(values['call-timeout']) > 0)) usageError(`--call-timeout takes a number of seconds above 0, got ${JSON.stringify(values['call-timeout'])}.`);

  const { ExpectedFailuresError, readExpectedFailures, rulesNamedInSuite } = await import('./lib/run-selection.js');
  const named = rulesNamedInSuite(repo);
  /** --rules: the rule ids asked for, each known to the catalogue and checked by a scenario or (with --properties) a property. */
  const onlyRules = values.rules === undefined ? undefined : values.rules.split(',').map((r) => r.trim()).filter(Boolean);
  if (onlyRules) {
    if (onlyRules.length === 0) usageError('--rules takes rule ids separated by commas, e.g. --rules scope-ceiling,tool-catalogue-exact.');
    const { loadRules } = await import('../spec/index.js');
    const catalogue = new Map(loadRules().map((r) => [r.id, r]));
    const unknown = onlyRules.filter((r) => !catalogue.has(r));
    if (unknown.length) usageError(`--rules: ${unknown.map((r) => JSON.stringify(r)).join(', ')} ${unknown.length === 1 ? 'is not a rule id' : 'are not rule ids'} of spec/rules; the ids are the "id" fields of spec/rules/*.yaml.`);
    for (const id of onlyRules) {
      if (named.features.has(id)) continue;
      if (named.properties.has(id)) {
        if (!values.properties) usageError(`--rules: ${id} is checked only by a property; add --properties to run it.`);
        continue;
      }
      const rule = catalogue.get(id)!;
      usageError(`--rules: the kit has no check that runs against a target for ${id}${rule.untestable ? ` (untestable: ${rule.untestable.replace(/\.$/, "")})` : rule.blackBox === false ? ` (checked by the reference's own tests: ${(rule.checkedBy ?? []).join(', ')})` : ''}.`);
    }
  }

  let declaration: string | undefined;
  if (values.declaration) {
    declaration = resolvePath(values.declaration);
    const { DeclarationError, readDeclaration } = await import('./lib/declaration.js');
    try {
      readDeclaration(declaration);
    } catch (error) {
      if (!(error instanceof DeclarationError)) throw error;
      usageError(error.message);
    }
  }

  // A deliberately broken server must fail its rule outright: expected failures do not apply to it.
  let expected = new Map<string, string>();
  if (!values.break?.length) {
    try {
      // Only the list given: the reference's own (conformance/expected-failures.yaml) is for the reference's run.
      if (values['expected-failures']) expected = readExpectedFailures(resolvePath(values['expected-failures']));
    } catch (error) {
      if (!(error instanceof ExpectedFailuresError)) throw error;
      usageError(error.message);
    }
  }
  // A word that is no feature file is a mistake (`site-mcp conformance conformance …`, a typo), not an empty run.
  const holdsFeatures = (path: string) => existsSync(path) && (statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).some((f) => String(f).endsWith('.feature')) : path.endsWith('.feature'));
  for (const path of positionals) {
    if (!holdsFeatures(resolvePath(repo, path.replace(/:\d+(:\d+)*$/, '')))) usageError(`"${path}" is not a feature file of the kit (features/*.feature[:LINE]); the commands are site-mcp serve, init, conformance, merge-reports, prove-checks and official-suite, and every option starts with --.`);
  }

  // A target is named with the secret of its fixtures protocol, which every run needs (conformance/docs/fixtures-protocol.md).
  const url = values.url ?? process.env.SITE_MCP_URL;
  if (url !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) usageError(`--url takes the base address of the server under test, e.g. --url http://127.0.0.1:8787, got ${JSON.stringify(url)}.`);
    if (!(values['fixtures-secret'] ?? process.env.SITE_MCP_FIXTURES_SECRET)) usageError(`--url needs the secret of the target's fixtures protocol: add --fixtures-secret S (or set SITE_MCP_FIXTURES_SECRET), the secret its test mode was started with.`);
  }
  // In the folder the command runs in, never inside the installed kit (node_modules/site-mcp/…).
  const reportsDir = resolvePath(values['report-dir'] ?? 'site-mcp-reports');
  return { values, positionals, seed, parallel, declaration, expected, named, onlyRules, reportsDir, shard: shard ? { index: Number(shard[1]), count: Number(shard[2]) } : undefined };
}

const { values, positionals, seed, parallel, declaration, expected, named, onlyRules, reportsDir, shard } = await checkCommandLine();

// A run that starts its own server (no --url: the reference, or a --break server) goes into a network namespace of
// loopback alone where this machine allows one (conformance/lib/run-isolated.mjs; rule kit-no-packet-off-machine), as
// npm test does: its canaries then listen on ports 80 and 443 and the rows with real non-public addresses run too,
// with nothing able to leave. Tried once: a machine without namespaces runs it here, after one line that says so.
if (!values.url && !process.env.SITE_MCP_URL && !values['dry-run'] && process.env.SITE_MCP_NET_ISOLATED !== '1' && process.env.SITE_MCP_ISOLATION_TRIED !== '1') {
  const isolate = fileURLToPath(new URL('./lib/run-isolated.mjs', import.meta.url));
  const child = spawn(process.execPath, [isolate, process.execPath, '--import', import.meta.resolve('tsx/esm'), fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, SITE_MCP_ISOLATION_TRIED: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  process.exit(await new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)))));
}
/** The properties are not split: with --shard they run in shard 1 only, so merged shards hold them once. */
const runsProperties = values.properties && (shard?.index ?? 1) === 1;
process.env.SITE_MCP_SEED = seed;
// Read by the steps (conformance/lib/network.ts), in this process or its Cucumber workers.
if (values['send-non-public-addresses']) process.env.SITE_MCP_SEND_NON_PUBLIC = '1';
if (values['call-timeout'] !== undefined) process.env.SITE_MCP_CALL_TIMEOUT_MS = String(Number(values['call-timeout']) * 1000);
// Before Cucumber or the steps load: with --parallel 1 they run in this process, and lib/declaration.ts keeps the
// first activeDeclaration() it reads (this process itself only calls readDeclaration before this line).
if (declaration) process.env.SITE_MCP_DECLARATION = declaration;
else delete process.env.SITE_MCP_DECLARATION;
await mkdir(reportsDir, { recursive: true });
const rulesTagExpression = onlyRules?.map((r) => `@rule:${r}`).join(' or ');

const quote = (s: string) => s.replace(/["\\^$.*+?()[\]{}|]/g, '\\$&');

/** A `rule:<id>` in a property's name, as the report reads it (report.ts), for each of `rules`. */
const ruleNamePattern = (rules: string[]) => `\\brule:(${rules.join('|')})(?![a-z0-9-])`;

/**
 * Runs the property tests against the target in a child vitest (a dependency of the package, found where Node
 * resolves it, so this works from an installed tarball too); resolves to its JSON report's path. With --rules,
 * only the files and tests that name one of those rules run.
 */
function runProperties(target: Target): Promise<string> {
  const output = join(reportsDir, 'vitest-properties.json');
  rmSync(output, { force: true });
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const select = onlyRules
    ? [
        ...readdirSync(join(repo, 'conformance/properties'))
          .filter((f) => f.endsWith('.test.ts') && new RegExp(ruleNamePattern(onlyRules)).test(readFileSync(join(repo, 'conformance/properties', f), 'utf8')))
          .map((f) => `conformance/properties/${f}`),
        `--testNamePattern=${ruleNamePattern(onlyRules)}`,
      ]
    : ['conformance/properties'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitest, 'run', '--config', join(repo, 'conformance/properties/vitest.config.ts'), ...select, '--reporter=json', `--outputFile=${output}`], {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, SITE_MCP_URL: target.url, SITE_MCP_FIXTURES_SECRET: target.fixturesSecret, SITE_MCP_SEED: seed },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-5000)));
    child.once('error', reject);
    child.once('exit', () => (existsSync(output) ? resolve(output) : reject(new Error(`the property tests wrote no report:\n${stderr}`))));
  });
}

async function main(): Promise<number> {
  const { resolveTarget, startBrokenServer } = await import('./lib/target.js');
  const target: Target = values['dry-run']
    ? { url: 'http://127.0.0.1:9', fixturesSecret: 'dry-run', stop: async () => undefined }
    : values.break?.length
      ? await startBrokenServer(values.break)
      : await resolveTarget({ url: values.url, fixturesSecret: values['fixtures-secret'] });
  let extras: { stop(): Promise<void> } | undefined;
  try {
    process.env.SITE_MCP_URL = target.url;
    process.env.SITE_MCP_FIXTURES_SECRET = target.fixturesSecret;
    let roundTripMs: number | undefined;
    /** Each era the kit speaks: offered or not, and whether this run checks it (a dry run: one pass, no target). */
    let eras: EraSummary[] = [{ era: values.protocol === 'all' ? '2025-11-25' : values.protocol!, offered: true, checked: true }];
    if (!values['dry-run']) {
      const { prerequisites, PrerequisiteError } = await import('./lib/prerequisites.js');
      try {
        extras = await prerequisites(target);
        if (parallel === undefined) roundTripMs = await (await import('./lib/round-trip.js')).measureRoundTrip(target);
      } catch (error) {
        console.error(error instanceof PrerequisiteError ? error.message : `prerequisite failed: ${(error as Error).message}`);
        return 2;
      }
      // The eras the target offers: each is checked in a run of its own; one it does not offer is reported
      // so and never fails the run, since the source names no MCP revision.
      const { probeEras } = await import('./lib/protocol-eras.js');
      let probes: Awaited<ReturnType<typeof probeEras>>;
      try {
        probes = await probeEras(target);
      } catch (error) {
        console.error(`prerequisite failed: the kit could not make a connection to probe the MCP protocol eras: ${(error as Error).message}`);
        return 2;
      }
      const offered = probes.filter((p) => p.offered);
      const answers = probes.map((p) => `${p.era === '2026-07-28' ? 'server/discover' : 'initialize'}: ${p.answer}`).join('; ');
      if (!offered.length) {
        console.error(`the target offers no MCP protocol era the kit speaks (${answers}); its /api/mcp must answer initialize (2025-11-25) or server/discover (2026-07-28).`);
        return 2;
      }
      if (values.protocol !== 'all' && !offered.some((p) => p.era === values.protocol)) {
        console.error(`--protocol ${values.protocol}: the target does not offer that era (${answers}); it offers ${offered.map((p) => p.era).join(', ')}: run with --protocol all or name that one.`);
        return 2;
      }
      eras = probes.map((p) => ({ era: p.era, offered: p.offered, checked: p.offered && (values.protocol === 'all' || values.protocol === p.era), ...(p.offered ? {} : { answer: p.answer }) }));
    }
    const { parallelForRoundTrip } = await import('./lib/round-trip.js');
    const chosenParallel = parallel ?? parallelForRoundTrip(roundTripMs ?? 0);
    // Cucumber's parallel workers are worker threads: they load the TypeScript step definitions through tsx, from
    // this process's node options and NODE_OPTIONS. The kit's TypeScript is all ESM, so tsx's ESM hooks are enough;
    // its full loader (`--import tsx`, the tsx command) also hooks every CommonJS require, scanning each of
    // Cucumber's files again in every thread, for nothing.
    // Named by its resolved address, not as `tsx/esm`, which a worker would resolve from the working directory: a
    // user's project that does not install tsx itself (npx site-mcp from anywhere).
    if (!/--import[= ]\S*tsx/.test(process.env.NODE_OPTIONS ?? '')) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${import.meta.resolve('tsx/esm')}`.trim();

    const checkedEras = eras.filter((e) => e.checked).map((e) => e.era);
    // The properties run once, in the first era checked (their results carry it).
    process.env.SITE_MCP_PROTOCOL = checkedEras[0]!;
    const properties = runsProperties && !values['dry-run'] ? runProperties(target) : undefined;
    properties?.catch(() => undefined);
    const { loadConfiguration, loadSources, loadSupport, runCucumber } = await import('@cucumber/cucumber/api');
    const { buildReport, junitXml, runExitCode, printReport, reportJson, rulesMarkdown, scenarioLocation, scenarioResults, scenariosMarkdown, summaryMarkdown, vitestResults } = await import('./lib/report.js');
    const { runConfiguration } = await loadConfiguration(
      {
        file: 'cucumber.mjs',
        profiles: values['include-wip'] ? ['wip'] : [],
        provided: { ...(values.tags || rulesTagExpression ? { tags: [values.tags, rulesTagExpression].filter(Boolean).map((t) => `(${t})`).join(' and ') } : {}), name: values.name ?? [], parallel: chosenParallel, dryRun: values['dry-run'], ...(values.shard ? { shard: values.shard } : {}) },
      },
      { cwd: repo },
    );
    // Feature paths on the command line replace the configured ones (Cucumber would add them to the glob).
    if (positionals.length) runConfiguration.sources.paths = positionals;
    const baseTags = runConfiguration.sources.tagExpression;
    const otherFiles = Object.entries(runConfiguration.formats.files).filter(([, formatter]) => formatter !== 'message');
    // The steps are loaded once for every era's run: a second import of the same modules would register nothing.
    const support = await loadSupport(runConfiguration, { cwd: repo });
    const scenarios: ScenarioResult[] = [];
    let success = true;
    for (const [i, era] of checkedEras.entries()) {
      // An era's run leaves out the scenarios of every other era (@era:<revision>, e.g. features/protocol-eras.feature).
      // A dry run checks every step of every era's scenarios.
      const eraTags = values['dry-run'] ? '' : ['2025-11-25', '2026-07-28'].filter((e) => e !== era).map((e) => `not @era:${e}`).join(' and ');
      runConfiguration.sources.tagExpression = [baseTags, eraTags].filter(Boolean).map((t) => (baseTags && eraTags ? `(${t})` : t)).join(' and ');
      // No more workers than selected scenarios, and one at a time runs in this process (Cucumber's parallel 0): each
      // worker thread loads Cucumber, tsx and the steps again, a large share of a short run's CPU. Parsing the selection
      // first costs about 50 ms.
      const planned = (await loadSources(runConfiguration.sources, { cwd: repo })).plan.length;
      // loadSources does not shard (runCucumber does): the shard's part of the plan is every count-th from its index.
      const selected = shard ? Math.max(0, Math.ceil((planned - shard.index + 1) / shard.count)) : planned;
      const workers = Math.min(chosenParallel, selected);
      runConfiguration.runtime.parallel = workers <= 1 ? 0 : workers;
      // Reports CI understands, from Cucumber's own formatters, and Cucumber's message stream, all in this run's
      // report directory (cucumber.mjs names reports/ for direct use): runs side by side, as in `npm test`, must not
      // write one file. The first era's run writes the plain names, each further era's its own (cucumber-<era>.html).
      const suffix = i === 0 ? '' : `-${era}`;
      runConfiguration.formats.files = { ...Object.fromEntries(otherFiles), [join(reportsDir, `cucumber-messages${suffix}.ndjson`)]: 'message' };
      // The console shows the kit's progress, a character per scenario, never Cucumber's totals (lib/progress-formatter.mjs).
      if (!values['dry-run']) runConfiguration.formats.stdout = fileURLToPath(new URL('./lib/progress-formatter.mjs', import.meta.url));
      // junit.xml is written from the report below: Cucumber's JUnit formatter would count a cut-short scenario as a pass.
      // report.html is the kit's own page (lib/report-html.ts, written below); Cucumber's is its detail page.
      if (!values['dry-run']) runConfiguration.formats.files = { ...runConfiguration.formats.files, [join(reportsDir, `cucumber${suffix}.html`)]: 'html' };
      console.log(`conformance target ${values['dry-run'] ? '(dry run)' : target.url} · protocol ${era} · seed ${seed} · tags ${runConfiguration.sources.tagExpression || '(all)'} · parallel ${workers <= 1 ? `1 (in this process)` : workers}${roundTripMs === undefined ? '' : ` (round trip ${roundTripMs.toFixed(1)} ms)`} · ${values.declaration ? `declaration ${values.declaration}` : 'no declaration: source checks only'}${process.env.SITE_MCP_NET_ISOLATED === '1' ? ' · network: loopback alone (a namespace of its own)' : ''}`);
      // Read by every McpConnection the steps make (lib/mcp-client.ts), in this process or its Cucumber workers.
      process.env.SITE_MCP_PROTOCOL = era;
      // Messages are collected in-process (the message file written by the formatter may still be flushing).
      const envelopes: Record<string, any>[] = [];
      const started = performance.now();
      const run = await runCucumber({ ...runConfiguration, support }, { cwd: repo }, (envelope) => envelopes.push(envelope as Record<string, any>));
      eras.find((e) => e.era === era)!.seconds = (performance.now() - started) / 1000;
      success &&= run.success;
      scenarios.push(...scenarioResults(envelopes).map((x) => ({ ...x, era })));
    }
    runConfiguration.sources.tagExpression = baseTags;

    const vitestReports = [values['vitest-report'], properties ? await properties.catch((e: Error) => (console.error(e.message), undefined)) : undefined].filter((x): x is string => Boolean(x));
    if (runsProperties && vitestReports.length === (values['vitest-report'] ? 1 : 0) && !values['dry-run']) {
      console.error('the property tests did not produce a report');
      return 1;
    }
    for (const file of vitestReports) scenarios.push(...vitestResults(file).map((x) => ({ ...x, era: checkedEras[0] })));

    // Rules a check exists for but this run did not execute (properties without a report, @wip or filtered
    // scenarios) are not "without a check".
    const staticallyNamed = new Set([...named.features, ...(vitestReports.length ? [] : named.properties)]);
    const report = { ...buildReport(scenarios, expected, staticallyNamed), eras };
    if (values['dry-run']) {
      // In a dry run every defined step is skipped; Cucumber fails the run only for undefined or ambiguous ones.
      console.log(`\ndry run: ${scenarios.length} scenarios, ${success ? 'every step defined exactly once' : 'undefined or ambiguous steps (listed above)'}`);
      return success && scenarios.length > 0 ? 0 : 1;
    }
    printReport(report);
    const json = reportJson(report) as { rules: unknown };
    const finishedAt = new Date().toISOString();
    await writeFile(
      join(reportsDir, 'conformance.json'),
      `${JSON.stringify({ target: target.url, seed: Number(seed), tags: runConfiguration.sources.tagExpression, includeWip: values['include-wip'], ...(values.shard ? { shard: values.shard } : {}), finishedAt, ...json }, null, 2)}\n`,
    );
    await writeFile(join(reportsDir, 'rules.json'), `${JSON.stringify({ target: target.url, seed: Number(seed), rules: json.rules, summary: report.summary, eras, notChecked: report.notChecked, choicesNotDeclared: report.choicesNotDeclared, withoutCheck: report.withoutCheck, referenceOnly: report.notBlackBox }, null, 2)}\n`);
    await writeFile(join(reportsDir, 'summary.md'), summaryMarkdown(report, target.url));
    await writeFile(join(reportsDir, 'rules.md'), rulesMarkdown(report));
    await writeFile(join(reportsDir, 'scenarios.md'), scenariosMarkdown(report));
    await writeFile(join(reportsDir, 'junit.xml'), junitXml(report));
    // The replay reruns the same scenario against the same target with the same choices; the secret stays in
    // the environment, never in a printed line.
    const sameTarget = [
      ...(values.url ? [`--url ${values.url} --fixtures-secret "$SITE_MCP_FIXTURES_SECRET"`] : []),
      ...(values.break ?? []).map((rule) => `--break ${rule}`),
      ...(values.declaration ? [`--declaration ${values.declaration}`] : []),
      ...(values['expected-failures'] ? [`--expected-failures ${values['expected-failures']}`] : []),
    ].join(' ');
    const replayOf = new Map(
      scenarios
        .filter((x) => x.status === 'failed' && x.source === 'cucumber')
        .map((s) => [scenarioLocation(s), `${invokedAs('conformance')} --seed ${seed}${sameTarget ? ` ${sameTarget}` : ''} --name "^${quote(s.name)}$" --protocol ${s.era}${s.line ? ` ${s.uri}:${s.line}` : ''}`]),
    );
    const { reportHtml } = await import('./lib/report-html.js');
    await writeFile(
      join(reportsDir, 'report.html'),
      reportHtml(report, { target: target.url, seed: Number(seed), finishedAt, tags: runConfiguration.sources.tagExpression, declaration: values.declaration, replays: replayOf, cucumberPage: 'cucumber.html' }),
    );
    for (const line of new Set(replayOf.values())) console.log(`replay: ${line}`);
    if (scenarios.some((s) => s.status === 'failed' && s.source === 'vitest')) console.log(`replay properties: ${invokedAs('conformance')} --seed ${seed}${sameTarget ? ` ${sameTarget}` : ''} --properties --rules ${[...new Set(scenarios.filter((s) => s.status === 'failed' && s.source === 'vitest').flatMap((s) => [...s.name.matchAll(/\brule:([a-z0-9-]+)/g)].map((m) => m[1]!)))].join(',')}`);
    // Last, where to read more: the lines a person sees when the run ends.
    console.log(`reports: ${join(reportsDir, 'report.html')} (the verdict per section and rule), summary.md, rules.md, scenarios.md, junit.xml, rules.json in ${reportsDir}`);

    // A shard of a selection smaller than its count of shards may hold no scenario: its empty report merges as nothing.
    if (shard && scenarios.length === 0) {
      console.log(`shard ${values.shard} holds no scenario of this selection`);
      return 0;
    }
    return runExitCode(report, success);
  } finally {
    await extras?.stop();
    await target.stop();
  }
}

process.exitCode = await main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  return 1;
});
process.exit(process.exitCode);
