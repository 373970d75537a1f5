// First contact with the kit (conformance/cli.ts): a target that cannot be reached, that does not serve the
// fixtures protocol with this secret, or a declaration that does not validate stops the run with exit 2 and one
// sentence that says what to do, never a stack trace; the fixtures handshake answers the protocol and version.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAjv } from '../../spec/index.js';
import { startReferenceServer, type Target } from '../lib/target.js';
import { FixturesClient } from '../lib/fixtures-client.js';
import { runNode } from './run-command.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-cli-'));
}, 60_000);
afterAll(async () => {
  await target?.stop();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], script = 'conformance/cli.ts') => runNode(['--import', 'tsx/esm', script, ...args], repo);

const oneSentence = (text: string) => {
  const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  expect(lines, text).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /); // no stack trace
};

describe('first contact', () => {
  // The kit's bin from a folder that installs nothing (npx from anywhere): Cucumber's workers still find tsx.
  it('runs from a working directory that has no tsx of its own, its parallel workers included', async () => {
    const run = await runNode([join(repo, 'bin/site-mcp.mjs'), 'conformance', '--url', target.url, '--fixtures-secret', target.fixturesSecret, '--parallel', '2', '--protocol', '2025-11-25', '--report-dir', join(dir, 'elsewhere'), join(repo, 'features/errors.feature')], dir);
    expect(run.stdout, run.stderr).toMatch(/^scenarios: [1-9]\d* passed .* 0 failed, of \d+$/m);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
  }, 120_000);

  it('the fixtures handshake names the protocol and its version, and is hidden without the secret', async () => {
    const answer = await new FixturesClient(target.url, target.fixturesSecret).handshake();
    const validate = sharedAjv().getSchema('https://site-mcp.invalid/spec/schemas/fixtures/fixtures.schema.json#/$defs/Handshake')!;
    expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    const hidden = await fetch(`${target.url}/test-fixtures/v1`, { headers: { 'x-fixtures-secret': 'wrong' } });
    expect(hidden.status).toBe(404);
  });

  it('an unreachable target exits 2 with one sentence', async () => {
    const { code, stderr } = await cli(['--url', 'http://127.0.0.1:9', '--fixtures-secret', 'x']);
    expect(code).toBe(2);
    oneSentence(stderr);
    expect(stderr).toMatch(/cannot reach/);
  });

  it('a target that accepts connections and never answers exits 2 with one sentence, within the call timeout', async () => {
    const silent = createServer(() => undefined); // takes the connection, reads, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = Date.now();
      const { code, stderr } = await runNode(['--import', 'tsx/esm', 'conformance/cli.ts', '--url', url, '--fixtures-secret', 'x', '--call-timeout', '2'], repo, {}, 60_000);
      expect(code, stderr).toBe(2);
      oneSentence(stderr);
      expect(stderr).toMatch(/did not answer GET \/test-fixtures\/v1 within 2 s.*--call-timeout/);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      silent.close();
    }
  }, 90_000);

  it('--url without a fixtures secret, or a --url that is no http address, exits 2 with one sentence', async () => {
    for (const [args, says] of [
      [['--url', target.url], /--url needs the secret of the target's fixtures protocol: add --fixtures-secret/],
      [['--url', 'localhost:8787', '--fixtures-secret', 'x'], /--url takes the base address/],
      [['--url', 'not a url', '--fixtures-secret', 'x'], /--url takes the base address/],
    ] as const) {
      const { code, stderr } = await cli([...args]);
      expect(code, args.join(' ')).toBe(2);
      oneSentence(stderr);
      expect(stderr).toMatch(says);
    }
  });

  it('a handshake whose pairingNames are not a declaration\'s pairing block exits 2 with one sentence', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const fake = createHttpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ protocol: 'site-mcp-fixtures', version: 1, supports: ['worlds'], pairingNames: { fields: { nonsense: 'x' } } }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { code, stderr } = await cli(['--url', `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, '--fixtures-secret', 'x']);
      expect(code, stderr).toBe(2);
      oneSentence(stderr);
      expect(stderr).toMatch(/answered pairingNames that do not match a declaration's pairing block/);
    } finally {
      fake.close();
    }
  });

  it('a wrong fixtures secret exits 2 with one sentence', async () => {
    const { code, stderr } = await cli(['--url', target.url, '--fixtures-secret', 'not-the-secret']);
    expect(code).toBe(2);
    oneSentence(stderr);
    expect(stderr).toMatch(/fixtures-secret/);
  });

  it('rule:kit-judges-by-source — a declaration that does not validate exits 2 with one sentence', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'declarationVersion: 1\nerrorCodes:\n  no_such_kind: X\n');
    const { code, stderr } = await cli(['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--declaration', file]);
    expect(code).toBe(2);
    oneSentence(stderr);
    expect(stderr).toMatch(/declaration\.schema\.json/);
  });

  it('rule:kit-judges-by-source — any part of the interface can be declared not built: its scenarios are not checked (not implemented), never failed', async () => {
    const file = join(dir, 'partial.yaml');
    await writeFile(file, 'declarationVersion: 1\nnotImplemented:\n  parts: [pairing, auth-md, resources, prompts]\n');
    const reports = join(dir, 'partial');
    const { code, stdout, stderr } = await cli(['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--declaration', file, '--report-dir', reports, '--parallel', '1', '--protocol', '2025-11-25', 'features/pairing.feature', 'features/resources-prompts.feature:13']);
    expect(code, stdout.slice(-3000) + stderr).toBe(0);
    const report = JSON.parse(await readFile(join(reports, 'conformance.json'), 'utf8')) as { scenarios: { status: string; notChecked?: string[] }[] };
    expect(report.scenarios.length).toBeGreaterThan(5);
    for (const s of report.scenarios) {
      expect(s.status).toBe('not-checked');
      expect(s.notChecked?.join(' ')).toMatch(/not implemented: (pairing|auth-md|resources|prompts) \(notImplemented in the declaration\)/);
    }
  }, 120_000);

  it('an unknown option or a bad value exits 2 with one sentence, in the kit and in the reference server', async () => {
    for (const [script, args, says] of [
      ['conformance/cli.ts', ['--no-such-option'], /--no-such-option.*--help/],
      ['conformance/cli.ts', ['--seed', 'soon'], /--seed/],
      ['conformance/cli.ts', ['--parallel', '0'], /--parallel/],
      ['reference/main.ts', ['--no-such-option'], /--no-such-option.*--help/],
      ['reference/main.ts', ['--port', 'eighty'], /--port/],
    ] as const) {
      const { code, stderr } = await cli([...args], script);
      expect(code, `${script} ${args.join(' ')}`).toBe(2);
      oneSentence(stderr.split('\n').filter((l) => !/oidc-provider WARNING/.test(l)).join('\n'));
      expect(stderr).toMatch(says);
    }
  });

  it('--help prints the usage with the exit codes and exits 0', async () => {
    for (const script of ['conformance/cli.ts', 'reference/main.ts']) {
      const { code, stdout } = await cli(['--help'], script);
      expect(code, script).toBe(0);
      expect(stdout, script).toMatch(/Exit codes: 0 /);
    }
  });

  // The machine's own Node (20 on the CI machine, which .ci/run puts Node 24 in front of): when it is older than
  // 22, each command must say so in one sentence, not fail later inside Cucumber.
  const oldNode = ['/usr/bin/node', '/bin/node'].find((p) => existsSync(p) && Number(spawnSync(p, ['-p', 'process.versions.node.split(".")[0]']).stdout.toString()) < 22);
  it.skipIf(!oldNode)('a Node older than 22 exits 2 with one sentence, in the kit and in the reference server', async () => {
    for (const script of ['conformance/cli.ts', 'reference/main.ts']) {
      const child = spawnSync(oldNode!, ['--import', 'tsx', script, '--url', 'http://127.0.0.1:9'], { cwd: repo, env: { ...process.env, NODE_OPTIONS: '' } });
      expect(child.status, script).toBe(2);
      const stderr = child.stderr.toString();
      oneSentence(stderr);
      expect(stderr).toMatch(/Node 22 or newer/);
    }
  });

  it('--rules with an unknown rule id, or a rule the kit has no check for, exits 2 with one sentence', async () => {
    for (const [rules, says] of [
      ['no-such-rule', /"no-such-rule" is not a rule id/],
      ['tool-catalogue-exact,nope', /"nope" is not a rule id/],
      [',', /--rules takes rule ids/],
      ['no-third-party-code', /no check that runs against a target for no-third-party-code \(untestable/],
    ] as const) {
      const { code, stderr } = await cli(['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--rules', rules]);
      expect(code, rules).toBe(2);
      oneSentence(stderr);
      expect(stderr).toMatch(says);
    }
  });

  it('--expected-failures that is missing, not YAML, off its schema or naming an unknown rule exits 2 with one sentence', async () => {
    const files: [string, string | undefined, RegExp][] = [
      ['missing.yaml', undefined, /cannot read the expected-failures file .*missing\.yaml/],
      ['not-yaml.yaml', 'expected: [\n', /is not YAML or JSON/],
      ['no-reason.yaml', 'expected:\n  - rule: scope-ceiling\n', /expected-failures\.schema\.json: .*reason/],
      ['unknown-rule.yaml', 'expected:\n  - rule: no-such-rule\n    reason: a typo\n', /not in the catalogue.*no-such-rule/],
    ];
    for (const [name, content, says] of files) {
      if (content !== undefined) await writeFile(join(dir, name), content);
      const { code, stderr } = await cli(['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--expected-failures', join(dir, name)]);
      expect(code, name).toBe(2);
      oneSentence(stderr);
      expect(stderr).toMatch(says);
    }
  });

  it('--rules runs only the scenarios of those rules, and --expected-failures FILE is the list the run is judged by', async () => {
    // The reference passes tool-catalogue-exact: listed as expected to fail, it turns the run red (XPASS), which
    // shows the file given was read instead of the kit's own (empty) list.
    const file = join(dir, 'expected.yaml');
    await writeFile(file, 'expected:\n  - rule: tool-catalogue-exact\n    reason: listed to see the file is read\n');
    const reports = join(dir, 'rules-run');
    const args = ['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--rules', 'tool-catalogue-exact', '--expected-failures', file, '--report-dir', reports];
    const { code, stdout } = await cli(args);
    expect(code, stdout.slice(-3000)).toBe(1);
    expect(stdout).toMatch(/tool-catalogue-exact\s+XPASS/);
    const report = JSON.parse(await readFile(join(reports, 'conformance.json'), 'utf8')) as { scenarios: { tags: string[]; source: string }[]; rules: { rule: string; status: string }[] };
    expect(report.scenarios.length).toBeGreaterThan(0);
    for (const s of report.scenarios) expect(s.tags).toContain('@rule:tool-catalogue-exact');
    expect(report.rules.find((r) => r.rule === 'tool-catalogue-exact')?.status).toBe('xpass');
  }, 120_000);

  it('a scenario stopped at a decision the target does not adopt is reported as not applicable everywhere, never as passed', async () => {
    // Source-only (no declaration), so the scenario stops at its first step; the run passes (nothing
    // failed) and no report counts it as passed (conformance/lib/report.ts, conformance/docs/report.md "Report: only what was checked").
    const reports = join(dir, 'not-applicable');
    const { code, stdout } = await cli(['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--rules', 'tools-list-no-output-schema', '--report-dir', reports, '--parallel', '1', '--protocol', '2025-11-25']);
    expect(code, stdout.slice(-3000)).toBe(0);
    expect(stdout).toMatch(/^tools-list-no-output-schema\s+not-applicable\s+1 scenario: 1 not applicable$/m);
    expect(stdout).toMatch(/^scenarios: 0 passed .*, 1 not applicable \(decision not adopted\), 0 failed, of 1$/m);
    expect(stdout).toMatch(/^rules: 0 verified, .*1 not applicable/m);
    const rules = JSON.parse(await readFile(join(reports, 'rules.json'), 'utf8')) as { rules: { rule: string; status: string; scenarios: { status: string; stoppedAt?: { step: string; reason: string } }[] }[] };
    expect(rules.rules.find((r) => r.rule === 'tools-list-no-output-schema')).toMatchObject({ status: 'not-applicable', scenarios: [{ status: 'not-applicable', stoppedAt: { step: 'Given the target adopts the decision "tools-list-no-output-schema"' } }] });
    const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite[^>]* tests="1" failures="0" skipped="1"/);
    expect(junit).toMatch(/<skipped message="not applicable: stopped at [^"]*decision not adopted: tools-list-no-output-schema"\/>/);
    expect(await readFile(join(reports, 'summary.md'), 'utf8')).toMatch(/\| not-applicable \| tools\/list publishes no outputSchema/);
  }, 120_000);

  it('a failing run writes junit.xml, report.html, rules.json and summary.md, and its replay line names the same server', async () => {
    const reports = join(dir, 'reports');
    const { code, stdout } = await cli(['--break', 'scope-ceiling', '--tags', '@rule:scope-ceiling', '--report-dir', reports, '--declaration', 'conformance/declarations/reference.yaml']);
    expect(code, stdout.slice(-3000)).toBe(1);
    expect(stdout).toMatch(/replay: npm run conformance -- --seed \d+ --break scope-ceiling --declaration conformance\/declarations\/reference.yaml --name/);
    const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite[^>]* failures="[1-9]/);
    expect(await readFile(join(reports, 'report.html'), 'utf8')).toMatch(/<html/i);
    const rules = JSON.parse(await readFile(join(reports, 'rules.json'), 'utf8')) as { rules: { rule: string; status: string }[] };
    expect(rules.rules.find((r) => r.rule === 'scope-ceiling')?.status).toBe('failed');
    expect(await readFile(join(reports, 'summary.md'), 'utf8')).toMatch(/conformance: \d+ problems? \(\d+ source rules failed\): \d+ of \d+ source rules verified[\s\S]*`scope-ceiling`/);
  }, 120_000);
});
