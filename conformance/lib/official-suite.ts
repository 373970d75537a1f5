// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) run against a
// target's MCP endpoint through the bearer proxy (bearer-proxy.ts: the suite cannot send a header), and its
// outcome compared with a baseline of scenarios that do not apply to this interface, each with its reason
// (conformance/official-mcp-baseline.yaml). Issue 10 item 6.
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
  /** Failed, and not in the baseline: a regression on our side (or a new scenario to judge). */
  unexpectedFailures: ScenarioOutcome[];
  /** In the baseline, and passed: the entry is stale and must go. */
  stale: string[];
  /** In the baseline, but the suite ran no such scenario (renamed or dropped in another version). */
  unknown: string[];
  /** In the baseline without a reason. */
  withoutReason: string[];
}

const PACKAGE = '@modelcontextprotocol/conformance';

/**
 * The installed suite's entry point and version (from its package.json). It is a dev dependency of this
 * repository; an installed site-mcp package does not bring it, so its absence is said in one sentence.
 */
export async function installedSuite(wanted = 'the version in conformance/official-mcp-baseline.yaml'): Promise<{ bin: string; version: string }> {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    // The package has a bin and no main or exports map, so its package.json is what resolves.
    dir = dirname(require.resolve(`${PACKAGE}/package.json`));
  } catch {
    throw new Error(`${PACKAGE} is not installed here; install ${wanted} beside the kit (npm install --no-save ${PACKAGE}@${wanted.startsWith('the ') ? '<version>' : wanted}).`);
  }
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  return { bin: join(dir, Object.values(pkg.bin)[0]!), version: pkg.version };
}

export async function loadOfficialBaseline(file: string): Promise<OfficialBaseline> {
  const raw = parseYaml(await readFile(file, 'utf8')) as Partial<OfficialBaseline> | null;
  if (!raw || raw.package !== PACKAGE || typeof raw.version !== 'string' || typeof raw.notApplicable !== 'object' || raw.notApplicable === null) {
    throw new Error(`${file}: expected package: ${PACKAGE}, version and a notApplicable map of scenario: reason`);
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
    const failures = checks
      .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      .map((c) => `${c.id} ${c.status}: ${(c.errorMessage ?? (c as { details?: { message?: string } }).details?.message ?? '').trim()}`);
    outcomes.push({ scenario: match[1]!, failed: failures.length > 0, failures });
  }
  return outcomes;
}

export function compareWithBaseline(outcomes: ScenarioOutcome[], baseline: OfficialBaseline): Comparison {
  const listed = baseline.notApplicable;
  const ran = new Set(outcomes.map((o) => o.scenario));
  return {
    unexpectedFailures: outcomes.filter((o) => o.failed && !Object.hasOwn(listed, o.scenario)),
    stale: outcomes.filter((o) => !o.failed && Object.hasOwn(listed, o.scenario)).map((o) => o.scenario),
    unknown: Object.keys(listed).filter((s) => !ran.has(s)),
    withoutReason: Object.entries(listed).filter(([, why]) => typeof why !== 'string' || why.trim().length < 10).map(([s]) => s),
  };
}

/**
 * Runs the suite's server scenarios (its default "active" suite) against `mcpUrl` with `token` as the bearer,
 * passing the baseline's scenarios as the suite's own --expected-failures file. The suite runs as a child
 * process, killed after `timeoutMs`.
 */
export async function runOfficialSuite(options: { mcpUrl: string; token: string; baseline: OfficialBaseline; timeoutMs: number }): Promise<OfficialRun> {
  const { bin, version } = await installedSuite(options.baseline.version);
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
    const args = [bin, 'server', '--url', `${proxy.url}${target.pathname}`, '--expected-failures', expectedFile, '-o', outputDir];
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
    const announced = /Running \w+ suite \((\d+) scenarios\)/.exec(stdout)?.[1];
    const outcomes = existsSync(outputDir) ? await readOutcomes(outputDir) : [];
    return { exitCode, announced: announced ? Number(announced) : undefined, outcomes, stdout, stderr, timedOut };
  } finally {
    await proxy.stop();
    await rm(work, { recursive: true, force: true });
  }
}
