// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) run against a
// target's MCP endpoint through the bearer proxy (bearer-proxy.ts: the suite cannot send a header), and its
// outcome compared with a baseline of scenarios that do not apply to this interface, each with its reason
// (conformance/official-mcp-baseline.yaml). A second run (rule mcp-eras-both): a newer version
// installed under an npm alias (the baseline's `installedAs`) with a frozen requirement set (`requirements`, the
// suite's --requirements <revision>), whose baseline names single checks (`<scenario>:<check-id>`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { startBearerProxy } from './bearer-proxy.js';

/** The baseline file: the suite version it was measured with, and each not-applicable scenario with its reason. */
export interface OfficialBaseline {
  package: string;
  version: string;
  /** The name it is installed under when not `package` (an npm alias, so two versions coexist). */
  installedAs?: string;
  /** A requirement set of the suite (--requirements <revision>) instead of its default active suite. */
  requirements?: string;
  /** `<scenario>` (the whole scenario may fail) or `<scenario>:<check-id>` (only that check may) → the reason. */
  notApplicable: Record<string, string>;
}

/**
 * One scenario's outcome: failed when any of its checks is a FAILURE or a WARNING, as the suite's own
 * expected-failures judgement counts it (its printed summary counts only FAILURE).
 */
export interface ScenarioOutcome {
  scenario: string;
  failed: boolean;
  failures: string[];
  /** Each check id's verdict, its occurrences collapsed most severe first (as the suite does): failed or passed. */
  checks?: Record<string, 'failed' | 'passed' | 'skipped'>;
}

export interface OfficialRun {
  /** The suite's exit code (its own verdict, with the baseline passed as --expected-failures), null when killed. */
  exitCode: number | null;
  /** How many scenarios the suite said it would run ("Running active suite (N scenarios)"). */
  announced: number | undefined;
  outcomes: ScenarioOutcome[];
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface Comparison {
  /**
   * Failed, and not in the baseline: a regression on our side (or a new scenario to judge). For a scenario with
   * per-check entries, `failures` holds only the failed checks that are not listed.
   */
  unexpectedFailures: ScenarioOutcome[];
  /** In the baseline, and passed: the entry (a scenario, or a `<scenario>:<check-id>`) is stale and must go. */
  stale: string[];
  /** In the baseline, but the suite ran no such scenario, or the scenario reported no such check (renamed or dropped?). */
  unknown: string[];
  /** In the baseline without a reason. */
  withoutReason: string[];
}

const PACKAGE = '@modelcontextprotocol/conformance';

/**
 * The installed suite's entry point and version (from its package.json). It is a dev dependency of this
 * repository; an installed site-mcp package does not bring it, so its absence is said in one sentence.
 */
export async function installedSuite(wanted = 'the version in conformance/official-mcp-baseline.yaml', installedAs = PACKAGE): Promise<{ bin: string; version: string }> {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    // The package has a bin and no main or exports map, so its package.json is what resolves.
    dir = dirname(require.resolve(`${installedAs}/package.json`));
  } catch {
    const spec = `${PACKAGE}@${wanted.startsWith('the ') ? '<version>' : wanted}`;
    throw new Error(`${installedAs} is not installed here; install ${wanted} beside the kit (npm install --no-save ${installedAs === PACKAGE ? spec : `${installedAs}@npm:${spec}`}).`);
  }
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  return { bin: join(dir, Object.values(pkg.bin)[0]!), version: pkg.version };
}

export async function loadOfficialBaseline(file: string): Promise<OfficialBaseline> {
  const raw = parseYaml(await readFile(file, 'utf8')) as Partial<OfficialBaseline> | null;
  if (
    !raw ||
    raw.package !== PACKAGE ||
    typeof raw.version !== 'string' ||
    typeof raw.notApplicable !== 'object' ||
    raw.notApplicable === null ||
    (raw.installedAs !== undefined && typeof raw.installedAs !== 'string') ||
    (raw.requirements !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(raw.requirements)))
  ) {
    throw new Error(`${file}: expected package: ${PACKAGE}, version, optionally installedAs and requirements (a revision date), and a notApplicable map of scenario (or scenario:check-id): reason`);
  }
  return raw as OfficialBaseline;
}

/** Reads the suite's result folders (server-<scenario>-<timestamp>/checks.json) into one outcome per scenario. */
export async function readOutcomes(outputDir: string): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  for (const entry of (await readdir(outputDir)).sort()) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    if (!match) continue;
    const checks = JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[];
    const bad = (c: { status: string }) => c.status === 'FAILURE' || c.status === 'WARNING';
    const failures = checks.filter(bad).map((c) => `${c.id} ${c.status}: ${(c.errorMessage ?? (c as { details?: { message?: string } }).details?.message ?? '').trim()}`);
    const verdicts: Record<string, 'failed' | 'passed' | 'skipped'> = {};
    for (const c of checks) {
      const now = bad(c) ? 'failed' : c.status === 'SKIPPED' ? 'skipped' : 'passed';
      const before = verdicts[c.id];
      // Repeated ids collapse to one verdict, the most severe first (the suite's own rule for per-check entries).
      if (!before || now === 'failed' || (now === 'passed' && before === 'skipped')) verdicts[c.id] = now;
    }
    outcomes.push({ scenario: match[1]!, failed: failures.length > 0, failures, checks: verdicts });
  }
  return outcomes;
}

/** A baseline key split into its scenario and, for a per-check entry, its check id. */
function entryOf(key: string): { scenario: string; check?: string } {
  const colon = key.indexOf(':');
  return colon < 0 ? { scenario: key } : { scenario: key.slice(0, colon), check: key.slice(colon + 1) };
}

/**
 * Judges the outcome against the baseline. A whole-scenario entry excuses every failed check of its scenario and
 * is stale when the scenario passes; a `<scenario>:<check-id>` entry excuses that check only, is stale when the
 * check passes, and unknown when the scenario did not report it (stricter than the suite, which tolerates an absent
 * check: against one target the same checks run every time, so an absent one is a renamed or dropped id).
 */
export function compareWithBaseline(outcomes: ScenarioOutcome[], baseline: OfficialBaseline): Comparison {
  const listed = baseline.notApplicable;
  const byScenario = new Map(outcomes.map((o) => [o.scenario, o]));
  const excusedChecks = new Map<string, Set<string>>();
  for (const key of Object.keys(listed)) {
    const { scenario, check } = entryOf(key);
    if (check !== undefined) excusedChecks.set(scenario, (excusedChecks.get(scenario) ?? new Set()).add(check));
  }
  const unexpectedFailures: ScenarioOutcome[] = [];
  const stale: string[] = [];
  const unknown: string[] = [];
  for (const o of outcomes) {
    if (Object.hasOwn(listed, o.scenario)) {
      if (!o.failed) stale.push(o.scenario);
      continue;
    }
    const excused = excusedChecks.get(o.scenario);
    const left = excused ? o.failures.filter((f) => !excused.has(f.split(' ')[0]!)) : o.failures;
    if (left.length) unexpectedFailures.push({ ...o, failures: left });
  }
  for (const key of Object.keys(listed)) {
    const { scenario, check } = entryOf(key);
    const o = byScenario.get(scenario);
    if (!o) unknown.push(key);
    else if (check !== undefined) {
      const verdict = o.checks?.[check];
      if (verdict === undefined) unknown.push(key);
      else if (verdict === 'passed') stale.push(key);
    }
  }
  return {
    unexpectedFailures,
    stale,
    unknown,
    withoutReason: Object.entries(listed).filter(([, why]) => typeof why !== 'string' || why.trim().length < 10).map(([s]) => s),
  };
}

/**
 * Runs the suite's server scenarios (its default "active" suite) against `mcpUrl` with `token` as the bearer,
 * passing the baseline's scenarios as the suite's own --expected-failures file. The suite runs as a child
 * process, killed after `timeoutMs`.
 */
export async function runOfficialSuite(options: { mcpUrl: string; token: string; baseline: OfficialBaseline; timeoutMs: number }): Promise<OfficialRun> {
  const { bin, version } = await installedSuite(options.baseline.version, options.baseline.installedAs);
  if (version !== options.baseline.version) {
    throw new Error(`the baseline is for ${PACKAGE} ${options.baseline.version} but ${version} is installed; judge the new version's outcome before changing the baseline's version.`);
  }
  const target = new URL(options.mcpUrl);
  const proxy = await startBearerProxy(target.origin, options.token);
  const work = await mkdtemp(join(tmpdir(), 'site-mcp-official-'));
  try {
    const expectedFile = join(work, 'expected-failures.yaml');
    await writeFile(expectedFile, stringifyYaml({ server: Object.keys(options.baseline.notApplicable) }));
    const outputDir = join(work, 'results');
    const args = [bin, 'server', '--url', `${proxy.url}${target.pathname}`, ...(options.baseline.requirements ? ['--requirements', options.baseline.requirements] : []), '--expected-failures', expectedFile, '-o', outputDir];
    const { exitCode, stdout, stderr, timedOut } = await new Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }>((resolve) => {
      // Asynchronous on purpose: the proxy answers from this process's event loop.
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      let out = '';
      let err = '';
      let killed = false;
      child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
      child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-50_000)));
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code, stdout: out, stderr: err, timedOut: killed });
      });
    });
    // "Running active suite (30 scenarios)", or with a requirement set "Running requirements 2026-07-28 (50 scenarios)".
    const announced = /Running (?:\w+ suite|requirements [\d-]+) \((\d+) scenarios\)/.exec(stdout)?.[1];
    const outcomes = existsSync(outputDir) ? await readOutcomes(outputDir) : [];
    return { exitCode, announced: announced ? Number(announced) : undefined, outcomes, stdout, stderr, timedOut };
  } finally {
    await proxy.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * One of the suite's authorization-server scenarios (`conformance authorization --scenario <name>`, not part of a
 * requirement set: the specification leaves the authorization server out of its scope) against `issuer`, with the
 * version a baseline names; answers each check's id and status. No bearer: the authorization server's metadata is
 * public.
 */
export async function runAuthorizationServerScenario(options: { issuer: string; scenario: string; baseline: OfficialBaseline; timeoutMs: number }): Promise<{ exitCode: number | null; checks: { id: string; status: string; errorMessage?: string }[]; stdout: string }> {
  const { bin } = await installedSuite(options.baseline.version, options.baseline.installedAs);
  const work = await mkdtemp(join(tmpdir(), 'site-mcp-official-as-'));
  try {
    const outputDir = join(work, 'results');
    const { exitCode, stdout } = await new Promise<{ exitCode: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'authorization', '--url', options.issuer, '--scenario', options.scenario, '-o', outputDir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-50_000)));
      child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-50_000)));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code, stdout: out });
      });
    });
    const checks: { id: string; status: string; errorMessage?: string }[] = [];
    if (existsSync(outputDir)) for (const entry of await readdir(outputDir)) checks.push(...(JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')) as typeof checks));
    return { exitCode, checks, stdout };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
