// A long-lived worker of prove-checks.ts (a Cucumber start-up per rule would be most of the run's time):
// loads Cucumber's configuration and the support code (the steps, through tsx) once, then for each request runs
// one rule's scenarios in this process against the URL it is given, as `npm run conformance -- --declaration
// conformance/declarations/reference.yaml --tags @rule:<id> --expected-failures <empty list>` would (the same
// set-up, conformance/lib/prerequisites.ts; the same report and exit code, conformance/lib/report.ts), and
// answers with that exit code and the text the CLI would print.
// Nothing of one run stays for the next: each run has its own DNS stub, test website and zone directory (stopped
// and removed after it), its own environment for the steps and a fresh World per scenario; the support code keeps
// no state between scenarios. `npm run prove-checks -- --control` proves it: every rule's scenarios, run in the
// same workers against the correct reference, must all pass.
//
// Started by prove-checks.ts with `fork` (IPC): requests { id, rule, url, fixturesSecret }, answers { id, code, out }.
import './lib/require-node.js';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadConfiguration, loadSupport, runCucumber, type IRunEnvironment } from '@cucumber/cucumber/api';
import { readDeclaration } from './lib/declaration.js';
import { prerequisites, PrerequisiteError } from './lib/prerequisites.js';
import { buildReport, printReport, rulesNamedInSuite, runExitCode, scenarioResults, type ScenarioResult } from './lib/report.js';
import { featureFilesByRule } from './lib/run-selection.js';

export interface ProveRequest { id: number; rule: string; url: string; fixturesSecret: string }
export interface ProveAnswer { id: number; code: number; out: string }

const repo = fileURLToPath(new URL('../', import.meta.url));
// prove-checks --source-only runs the workers with no declaration: the first run every implementer makes.
const sourceOnly = process.env.SITE_MCP_PROVE_SOURCE_ONLY === '1';
const declaration = join(repo, 'conformance/declarations/reference.yaml');
if (sourceOnly) delete process.env.SITE_MCP_DECLARATION;
else {
  readDeclaration(declaration);
  process.env.SITE_MCP_DECLARATION = declaration;
}

// Cucumber's formatter output goes to the current run's text (one run at a time in a worker).
let out = '';
const sink = new Writable({ write: (chunk, _encoding, done) => ((out += String(chunk)), done()) });
const environment: IRunEnvironment = { cwd: repo, stdout: sink, stderr: sink, env: process.env };
// The CLI's default profile (not @wip), in this process (parallel 0); progress output as the CLI prints it, no files.
const { runConfiguration } = await loadConfiguration({ file: 'cucumber.mjs', provided: { parallel: 0 } }, environment);
runConfiguration.formats = { stdout: 'progress', files: {}, publish: false, options: {} };
const baseTags = runConfiguration.sources.tagExpression;
// A rule's run parses only the feature files that name its tag (a tag on the Feature or Rule line is in the file
// too), not all of them again for every rule; all of them for a rule none names.
const filesOfRule = featureFilesByRule(repo);
const support = await loadSupport(runConfiguration, environment);
const named = rulesNamedInSuite(repo);

async function prove({ rule, url, fixturesSecret }: ProveRequest): Promise<{ code: number; out: string }> {
  out = '';
  const log = (line: string) => (out += `${line}\n`);
  const seed = String(Math.floor(Math.random() * 2 ** 31));
  Object.assign(process.env, { SITE_MCP_SEED: seed, SITE_MCP_URL: url, SITE_MCP_FIXTURES_SECRET: fixturesSecret });
  let extras: { stop(): Promise<void> } | undefined;
  try {
    try {
      extras = await prerequisites({ url, fixturesSecret });
    } catch (error) {
      log(error instanceof PrerequisiteError ? error.message : `prerequisite failed: ${(error as Error).message}`);
      return { code: 2, out };
    }
    // The rule's scenarios in the 2025-11-25 era, and those that belong to the 2026-07-28 era (@era:2026-07-28,
    // features/protocol-eras.feature) in that era, as the CLI's run of each era would select them. The CLI runs every
    // other scenario in both eras too; a broken server here breaks a rule in the era its scenarios run in.
    const paths = filesOfRule.get(rule) ?? runConfiguration.sources.paths;
    const eras: [string, string][] = [['2025-11-25', `(${baseTags}) and (@rule:${rule}) and not @era:2026-07-28`]];
    if (filesOfRule.get(rule)?.some((file) => readFileSync(join(repo, file), 'utf8').includes('@era:2026-07-28'))) eras.push(['2026-07-28', `(${baseTags}) and (@rule:${rule}) and @era:2026-07-28`]);
    const scenarios: ScenarioResult[] = [];
    let success = true;
    for (const [era, tagExpression] of eras) {
      log(`conformance target ${url} · protocol ${era} · seed ${seed} · tags ${tagExpression} · in-process (prove-worker) · ${sourceOnly ? 'no declaration: source checks only' : 'declaration conformance/declarations/reference.yaml'}`);
      process.env.SITE_MCP_PROTOCOL = era;
      const envelopes: Record<string, any>[] = [];
      const run = await runCucumber({ ...runConfiguration, sources: { ...runConfiguration.sources, paths, tagExpression }, support }, environment, (envelope) => envelopes.push(envelope as Record<string, any>));
      success &&= run.success;
      scenarios.push(...scenarioResults(envelopes).map((x) => ({ ...x, era })));
    }
    // A broken server must fail its rule outright: no expected failure applies (as the CLI's --break has it).
    const report = buildReport(scenarios, new Map(), new Set([...named.features, ...named.properties]));
    printReport(report, log);
    const code = runExitCode(report, success, log);
    return { code, out };
  } catch (error) {
    log(`the run for ${rule} failed: ${(error as Error).stack ?? (error as Error).message}`);
    return { code: 1, out };
  } finally {
    await extras?.stop();
  }
}

// One request at a time: prove-checks sends the next only after the answer (the environment above is the run's).
process.on('message', (request: ProveRequest) => {
  void prove(request).then(({ code, out: text }) => process.send!({ id: request.id, code, out: text } satisfies ProveAnswer));
});
// Its parent gone (prove-checks ended or died), the worker has nothing left to do.
process.on('disconnect', () => process.exit(0));
process.send!({ id: 0, code: 0, out: 'ready' } satisfies ProveAnswer);
