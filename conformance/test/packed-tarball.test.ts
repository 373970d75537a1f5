// The kit as a product: what `npm pack` makes works in an empty folder with nothing from this checkout.
// The tarball is installed with its dependencies as a user would, from npm's cache alone (--offline: npm run
// test:packed warms the cache first, outside the network namespace this runs in), then its `site-mcp` command
// answers --help, serves the reference, runs the suite against it with reports, runs a fast-check property in the
// same run (--properties, limited with --rules) judged by the user's own --expected-failures file, and answers an
// unreachable URL with one sentence and exit 2.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const npm = join(process.execPath, '..', 'npm');
let dir: string;
let bin: string;
let serve: ChildProcess | undefined;
let url: string;

/** Runs the installed command; resolves with its exit code and output whatever the code. */
function siteMcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: join(dir, 'app'), timeout: 240_000, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-packed-'));
  await run(existsSync(npm) ? npm : 'npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: repo, timeout: 120_000 });
  const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))!;
  await run('mkdir', [join(dir, 'app')]);
  await writeFile(join(dir, 'app', 'package.json'), JSON.stringify({ name: 'empty-folder', private: true }));
  // --offline inside the namespace (rule kit-no-packet-off-machine): conformance/lib/warm-npm-cache.mjs filled npm's
  // cache; outside one (a developer's `npx vitest run` of this file) the registry may fill what the cache lacks.
  const offline = process.env.SITE_MCP_NET_ISOLATED === '1' ? '--offline' : '--prefer-offline';
  await run(existsSync(npm) ? npm : 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', offline, join(dir, tarball)], { cwd: join(dir, 'app'), timeout: 300_000 });
  bin = join(dir, 'app', 'node_modules', '.bin', 'site-mcp');
}, 400_000);

afterAll(async () => {
  serve?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the packed kit in an empty folder', () => {
  it('ships every page its READMEs send a newcomer to: the quick start, its reference pages, the second server', () => {
    const installed = join(dir, 'app', 'node_modules', 'site-mcp');
    for (const page of ['README.md', 'conformance/README.md', 'conformance/docs/fixtures-protocol.md', 'conformance/docs/running.md', 'conformance/docs/declaration.md', 'conformance/docs/report.md', 'examples/second-server/README.md']) {
      expect(existsSync(join(installed, page)), page).toBe(true);
    }
  });

  it('answers --help with its commands and exit codes', async () => {
    const help = await siteMcp(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/serve[\s\S]*conformance[\s\S]*prove-checks/);
    expect(help.stdout).toMatch(/Exit codes: 0/);
  });

  it('serves the reference and runs the suite against it, writing junit.xml, report.html and rules.json', async () => {
    serve = spawn(process.execPath, [bin, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(dir, 'data'), '--fixtures-secret', 'packed-secret-0123456', '--no-seed'], { cwd: join(dir, 'app'), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`site-mcp serve did not start within 60 s:\n${out}`)), 60_000);
      serve!.stdout!.on('data', (d: Buffer) => {
        out += d;
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      serve!.stderr!.on('data', (d: Buffer) => (out += d));
    });
    // The kit's own list of the reference's known failures applies only when given: listing the rule there must not
    // turn another target's run red (an unexpected pass) when the user gave no --expected-failures.
    await writeFile(join(dir, 'app', 'node_modules', 'site-mcp', 'conformance', 'expected-failures.yaml'), 'expected:\n  - rule: tool-catalogue-exact\n    reason: the reference\'s list, not this run\'s\n');
    const result = await siteMcp(['conformance', '--url', url, '--fixtures-secret', 'packed-secret-0123456', '--report-dir', 'out', '--tags', '@rule:tool-catalogue-exact']);
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toMatch(/tool-catalogue-exact\s+verified/);
    for (const file of ['junit.xml', 'report.html', 'rules.json']) expect(existsSync(join(dir, 'app', 'out', file)), file).toBe(true);
  }, 300_000);

  // One run for two things (each conformance run from the package costs a Cucumber start-up): the property of a rule
  // runs from the installed package in the same report (--rules, --properties), and the user's own
  // --expected-failures file (relative to the current folder) is the list the run is judged by.
  it('runs the fast-check properties of the rules asked for in the same run, and judges by the user\'s own --expected-failures file; a missing one exits 2', async () => {
    expect(url, 'the serve test runs first').toBeTruthy();
    await writeFile(join(dir, 'app', 'expected.yaml'), 'expected:\n  - rule: tool-catalogue-exact\n    reason: listed to see the file is read\n');
    // The reference passes the rule, so listing it as expected to fail turns the run red (exit 1): the file was read.
    const result = await siteMcp(['conformance', '--url', url, '--fixtures-secret', 'packed-secret-0123456', '--report-dir', 'out-properties', '--rules', 'content-write-draft-only,tool-catalogue-exact', '--properties', '--seed', '7', '--expected-failures', 'expected.yaml']);
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(1);
    expect(result.stdout).toMatch(/tool-catalogue-exact\s+XPASS/);
    const report = JSON.parse(await readFile(join(dir, 'app', 'out-properties', 'conformance.json'), 'utf8')) as { summary: { problems: number; unexpectedPasses: number; scenariosFailed: number }; rules: { rule: string; status: string; scenarios: { name: string; where: string; status: string }[] }[] };
    // The unexpected pass is the run's only problem: everything else passed, as a run without the list would.
    expect(report.summary, JSON.stringify(report.summary)).toMatchObject({ problems: 1, unexpectedPasses: 1, scenariosFailed: 0 });
    expect(report.rules.find((r) => r.rule === 'tool-catalogue-exact')?.status).toBe('xpass');
    const rule = report.rules.find((r) => r.rule === 'content-write-draft-only');
    expect(rule?.status).toBe('verified');
    // The property ran from the installed package (not only the Gherkin scenarios of the rule).
    // (Its location names the protocol era it ran in, as every scenario's does.)
    expect(rule?.scenarios.some((s) => /node_modules\/site-mcp\/conformance\/properties\/draft-only\.test\.ts( \[[0-9-]+\])?$/.test(s.where) && s.status === 'passed'), JSON.stringify(rule)).toBe(true);
    const missing = await siteMcp(['conformance', '--url', url, '--fixtures-secret', 'packed-secret-0123456', '--expected-failures', 'no-such-file.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the expected-failures file/);
  }, 300_000);

  it('writes its reports to ./site-mcp-reports, names them on its last line, and prints a replay line that runs as printed', async () => {
    const result = await siteMcp(['conformance', '--break', 'scope-ceiling', '--tags', '@rule:scope-ceiling', '--protocol', '2025-11-25', '--parallel', '1']);
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(1);
    expect(existsSync(join(dir, 'app', 'site-mcp-reports', 'report.html'))).toBe(true);
    expect(existsSync(join(dir, 'app', 'node_modules', 'site-mcp', 'reports'))).toBe(false);
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^reports: ${join(dir, 'app', 'site-mcp-reports', 'report.html').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `));
    const replay = /^replay: (npx site-mcp conformance .*)$/m.exec(result.stdout)?.[1];
    expect(replay, result.stdout.slice(-3000)).toBeTruthy();
    // As printed, in the same folder: npx finds the installed kit's command; the one scenario fails again.
    const again = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile('sh', ['-c', `${replay} --report-dir replayed`], { cwd: join(dir, 'app'), timeout: 240_000, env: { ...process.env, NODE_OPTIONS: '', npm_config_offline: 'true' } }, (error, stdout) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout }));
    });
    expect(again.code, again.stdout.slice(-2000)).toBe(1);
    expect(again.stdout).toMatch(/^scenarios: 0 passed .* 1 failed, of 1$/m);
  }, 400_000);

  it('refuses a word that is no feature file, naming the commands: exit 2, one sentence', async () => {
    const result = await siteMcp(['conformance', 'conformance', '--url', 'http://127.0.0.1:9', '--fixtures-secret', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"conformance" is not a feature file of the kit .*site-mcp serve, init, conformance/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('answers an unreachable URL with one sentence and exit 2, no stack trace', async () => {
    const result = await siteMcp(['conformance', '--url', 'http://127.0.0.1:9', '--fixtures-secret', 'x', '--report-dir', 'out-unreachable']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(result.stderr + result.stdout).not.toMatch(/^\s+at /m);
  }, 120_000);
});
