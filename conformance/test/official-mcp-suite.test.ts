// The official MCP conformance suite against the reference, in npm test: its active server scenarios run
// through the bearer proxy (the suite cannot send an Authorization header, §4.1 requires one), and the outcome must
// match conformance/official-mcp-baseline.yaml exactly: every failing scenario is listed there with its reason, and
// every listed one still fails. A second run (rule mcp-eras-both), 0.2.0-alpha's requirement set for protocol
// revision 2026-07-28 (installed under the alias @modelcontextprotocol/conformance-next), against its own
// baseline of single checks (conformance/official-mcp-baseline-2026-07-28.yaml).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../lib/target.js';
import { referenceServer } from '../properties/shared-reference.js';
import { FixturesClient } from '../lib/fixtures-client.js';
import { startBearerProxy } from '../lib/bearer-proxy.js';
import { compareWithBaseline, installedSuite, loadOfficialBaseline, runAuthorizationServerScenario, runOfficialSuite, type OfficialBaseline, type OfficialRun, type ScenarioOutcome } from '../lib/official-suite.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const BASELINE_FILE = `${repo}conformance/official-mcp-baseline.yaml`;
const BASELINE_2026_FILE = `${repo}conformance/official-mcp-baseline-2026-07-28.yaml`;
// The whole suite takes about 2 s against the reference on a quiet machine; the bound is for a loaded one.
const SUITE_TIMEOUT_MS = 90_000;

let target: Target;
let token: string;
let baseline: OfficialBaseline;
let baseline2026: OfficialBaseline;

beforeAll(async () => {
  baseline = await loadOfficialBaseline(BASELINE_FILE);
  baseline2026 = await loadOfficialBaseline(BASELINE_2026_FILE);
  target = await referenceServer();
  const fx = new FixturesClient(target.url, target.fixturesSecret);
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  token = (await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, preset: 'full' })).token;
});

afterAll(async () => {
  await target?.stop();
});

describe('the bearer proxy', () => {
  it('adds the bearer, so the MCP endpoint that refuses the bare request answers through the proxy', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'proxy-test', version: '1' } } };
    const post = (base: string) =>
      fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
    expect((await post(target.url)).status).toBe(401);
    const proxy = await startBearerProxy(target.url, token);
    try {
      const answer = await post(proxy.url);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { result: { serverInfo: unknown } }).result.serverInfo).toBeDefined();
    } finally {
      await proxy.stop();
    }
  });

  it('passes a foreign Host through unchanged, for the target to refuse (DNS rebinding)', async () => {
    const proxy = await startBearerProxy(target.url, token);
    try {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${proxy.url}/api/mcp`, { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once('error', reject);
        req.end('{}');
      });
      expect(status).toBe(403);
    } finally {
      await proxy.stop();
    }
  });
});

describe('the baseline', () => {
  it('is for the pinned version of the suite, which is the one installed', async () => {
    const pkg = JSON.parse(await readFile(`${repo}package.json`, 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@modelcontextprotocol/conformance'], 'pin an exact version').toBe(baseline.version);
    expect((await installedSuite()).version).toBe(baseline.version);
  });

  it('judges an outcome: an unlisted failure, a stale entry, an unknown entry and a missing reason are each reported', () => {
    const outcomes = [
      { scenario: 'ping', failed: true, failures: ['ping: no answer'] },
      { scenario: 'tools-list', failed: false, failures: [] },
      { scenario: 'logging-set-level', failed: true, failures: ['logging-set-level: -32601'] },
    ];
    const judged = compareWithBaseline(outcomes, {
      package: '@modelcontextprotocol/conformance',
      version: 'x',
      notApplicable: { 'tools-list': 'Listed although it passes, so the entry is stale.', 'logging-set-level': '', 'gone-scenario': 'Not run by this version of the suite.' },
    });
    expect(judged.unexpectedFailures.map((o) => o.scenario)).toEqual(['ping']);
    expect(judged.stale).toEqual(['tools-list']);
    expect(judged.unknown).toEqual(['gone-scenario']);
    expect(judged.withoutReason).toEqual(['logging-set-level']);
  });

  it('the second run is 0.2.0-alpha under its alias, pinned exactly, with the 2026-07-28 requirement set', async () => {
    const pkg = JSON.parse(await readFile(`${repo}package.json`, 'utf8')) as { devDependencies: Record<string, string> };
    expect(baseline2026.installedAs).toBe('@modelcontextprotocol/conformance-next');
    expect(baseline2026.requirements).toBe('2026-07-28');
    expect(pkg.devDependencies[baseline2026.installedAs!], 'pin an exact version under the alias').toBe(`npm:@modelcontextprotocol/conformance@${baseline2026.version}`);
    expect((await installedSuite(baseline2026.version, baseline2026.installedAs)).version).toBe(baseline2026.version);
    // The 2026 baseline names single checks only, so every other check of a listed scenario is still enforced.
    expect(Object.keys(baseline2026.notApplicable).filter((key) => !key.includes(':')), 'whole-scenario entries').toEqual([]);
  });

  it('judges per-check entries: an unlisted failed check, a passing listed check and an unreported one are each reported', () => {
    const outcomes: ScenarioOutcome[] = [
      { scenario: 'server-stateless', failed: true, failures: ['needs-fixture FAILURE: no such tool', 'discover-answers FAILURE: -32601'], checks: { 'needs-fixture': 'failed', 'discover-answers': 'failed', other: 'passed' } },
      { scenario: 'caching', failed: false, failures: [], checks: { 'ttl-present': 'passed' } },
    ];
    const judged = compareWithBaseline(outcomes, {
      package: '@modelcontextprotocol/conformance',
      version: 'x',
      notApplicable: {
        'server-stateless:needs-fixture': 'Calls a fixture tool the catalogue has not got.',
        'caching:ttl-present': 'Listed although the check passes, so the entry is stale.',
        'caching:renamed-check': 'A check id this version does not report.',
      },
    });
    expect(judged.unexpectedFailures.map((o) => `${o.scenario}: ${o.failures.join('; ')}`)).toEqual(['server-stateless: discover-answers FAILURE: -32601']);
    expect(judged.stale).toEqual(['caching:ttl-present']);
    expect(judged.unknown).toEqual(['caching:renamed-check']);
  });
});

describe('@modelcontextprotocol/conformance server scenarios against the reference', () => {
  let run: OfficialRun;

  beforeAll(async () => {
    run = await runOfficialSuite({ mcpUrl: `${target.url}/api/mcp`, token, baseline, timeoutMs: SUITE_TIMEOUT_MS });
  }, SUITE_TIMEOUT_MS + 10_000);

  it('runs every scenario of its active suite within the time bound', () => {
    expect(run.timedOut, `the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`).toBe(false);
    expect(run.announced, run.stdout.slice(0, 500)).toBeGreaterThan(0);
    expect(run.outcomes).toHaveLength(run.announced!);
  });

  it('fails exactly the scenarios of the baseline, each listed with its reason', () => {
    const judged = compareWithBaseline(run.outcomes, baseline);
    expect(judged.withoutReason, 'baseline entries without a reason').toEqual([]);
    expect(judged.unknown, 'baseline entries the suite did not run (renamed or dropped?)').toEqual([]);
    expect(judged.stale, 'baseline entries that now pass: remove them').toEqual([]);
    expect(judged.unexpectedFailures.map((o) => `${o.scenario} — ${o.failures.join('; ')}`), 'failing scenarios not in the baseline').toEqual([]);
    // What applies passes through the bearer path: initialize, ping, tools/list, a tool call and a tool error, the
    // resources and prompts lists, DNS-rebinding protection (8 scenarios with 0.1.16).
    const passed = run.outcomes.filter((o) => !o.failed).map((o) => o.scenario);
    expect(passed).toEqual(expect.arrayContaining(['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection']));
  });

  it('and the suite agrees: with the baseline as its --expected-failures it exits 0', () => {
    expect(run.exitCode, run.stdout.slice(-3000)).toBe(0);
  });
});

describe('@modelcontextprotocol/conformance 0.2.0-alpha, requirement set 2026-07-28, against the reference', () => {
  let run: OfficialRun;

  beforeAll(async () => {
    run = await runOfficialSuite({ mcpUrl: `${target.url}/api/mcp`, token, baseline: baseline2026, timeoutMs: SUITE_TIMEOUT_MS });
  }, SUITE_TIMEOUT_MS + 10_000);

  it('runs every scenario of the requirement set within the time bound', () => {
    expect(run.timedOut, `the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`).toBe(false);
    expect(run.stdout).toMatch(/Running requirements 2026-07-28/);
    expect(run.announced, run.stdout.slice(0, 500)).toBeGreaterThan(0);
    expect(run.outcomes).toHaveLength(run.announced!);
  });

  it('fails exactly the checks of its baseline, each listed with its reason', () => {
    const judged = compareWithBaseline(run.outcomes, baseline2026);
    expect(judged.withoutReason, 'baseline entries without a reason').toEqual([]);
    expect(judged.unknown, 'baseline entries the suite did not report (renamed or dropped?)').toEqual([]);
    expect(judged.stale, 'baseline entries that now pass: remove them').toEqual([]);
    expect(judged.unexpectedFailures.map((o) => `${o.scenario} — ${o.failures.join('; ')}`), 'failing checks not in the baseline').toEqual([]);
    // The stateless wire passes whole: discover, per-request _meta, resultType, cache hints, Mcp-Method/Mcp-Name
    // validation, resource not found as -32602 (13 scenarios pass whole with 0.2.0-alpha.12).
    const passed = run.outcomes.filter((o) => !o.failed).map((o) => o.scenario);
    expect(passed).toEqual(expect.arrayContaining(['tools-list', 'tools-call-simple-text', 'tools-call-error', 'resources-list', 'prompts-list', 'sep-2164-resource-not-found', 'caching', 'dns-rebinding-protection', 'http-header-validation']));
    // server-stateless fails only its two checks that need the suite's test tool; its other checks pass.
    const stateless = run.outcomes.find((o) => o.scenario === 'server-stateless')!;
    expect(Object.values(stateless.checks ?? {}).filter((v) => v === 'passed').length).toBeGreaterThanOrEqual(20);
  });

  it('and the suite agrees: with the baseline as its --expected-failures it exits 0', () => {
    expect(run.exitCode, run.stdout.slice(-3000)).toBe(0);
  });

  it('its authorization-server scenario passes whole against the issuer <base>/oidc: metadata at the RFC 8414 path-inserted address, metadata documents advertised', async () => {
    const as = await runAuthorizationServerScenario({ issuer: `${target.url}/oidc`, scenario: 'authorization-server-metadata-endpoint', baseline: baseline2026, timeoutMs: SUITE_TIMEOUT_MS });
    expect(as.exitCode, as.stdout.slice(-2000)).toBe(0);
    expect(as.checks.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['authorization-server-metadata SUCCESS', 'authorization-server-metadata-cimd SUCCESS']);
  }, SUITE_TIMEOUT_MS + 10_000);
});

describe('conformance/official-suite.ts, the command for any endpoint', () => {
  const command = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx/esm', 'conformance/official-suite.ts', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', SITE_MCP_TOKEN: '' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });

  it('exits 0 against the reference with its token', async () => {
    const ok = await command(['--url', `${target.url}/api/mcp`, '--token', token]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/✓ server-initialize/);
    expect(ok.stdout).not.toContain(token);
  }, SUITE_TIMEOUT_MS + 20_000);

  it('exits 0 against the reference with the 2026-07-28 baseline, the second run', async () => {
    const ok = await command(['--url', `${target.url}/api/mcp`, '--token', token, '--baseline', BASELINE_2026_FILE]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/✓ caching/);
    expect(ok.stdout).toMatch(/~ server-stateless/);
    expect(ok.stdout).toMatch(/suite 0\.2\.0-alpha\.\d+, requirements 2026-07-28/);
  }, SUITE_TIMEOUT_MS + 20_000);

  it('exits 2 with one sentence, before running anything, without a token, with a refused one, or with no server', async () => {
    for (const [args, said] of [
      [['--url', `${target.url}/api/mcp`], /give --url .* and --token/],
      [['--url', `${target.url}/api/mcp`, '--token', 'smcp_live_not-a-token'], /refused this token \(HTTP 401\)/],
      [['--url', 'http://127.0.0.1:9/api/mcp', '--token', token], /cannot reach/],
    ] as const) {
      const { code, stdout, stderr } = await command([...args]);
      expect(code, stdout + stderr).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(said);
      expect(stdout).toBe('');
    }
  }, 60_000);
});
