// The GitHub Action (action.yml) as one step: its logic, action/run.sh, run here as a runner would run it. Without the
// input kit it packs this checkout, installs the tarball with npm (from npm's cache alone inside the network
// namespace npm run test:packed gives it, as packed-tarball.test.ts) and runs the installed site-mcp conformance against a reference,
// writing the reports, the job summary and the step's outputs. A missing input is one sentence and exit 2 before
// anything is installed. action.yml hands run.sh every input and uploads the report directory even after a failure.
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startReferenceServer, type Target } from '../lib/target.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-action-'));
}, 60_000);
afterAll(async () => {
  await target?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function runSh(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // PATH first: npm and node of this test's Node.
    // In the namespace npm has only its cache (npm_config_offline): conformance/lib/warm-npm-cache.mjs filled it.
    const offline = process.env.SITE_MCP_NET_ISOLATED === '1' ? { npm_config_offline: 'true' } : {};
    execFile('bash', [join(repo, 'action/run.sh')], { cwd: dir, timeout: 400_000, env: { PATH: `${join(process.execPath, '..')}:${process.env.PATH}`, HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? tmpdir(), ...offline, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the GitHub Action', () => {
  it('action.yml runs action/run.sh with every input and uploads the reports also after a failure; package.json is publishable', async () => {
    const action = parseYaml(await readFile(join(repo, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; runs: { using: string; steps: { run?: string; env?: Record<string, string>; uses?: string; if?: string; with?: Record<string, string> }[] } };
    expect(action.runs.using).toBe('composite');
    const run = action.runs.steps.find((s) => s.run?.includes('action/run.sh'))!;
    for (const input of ['url', 'fixtures-secret', 'declaration', 'expected-failures', 'report-dir', 'kit', 'args', 'start', 'wait-for', 'wait-seconds']) {
      expect(run.env?.[`INPUT_${input.toUpperCase().replace(/-/g, '_')}`]).toBe(`\${{ inputs.${input} }}`);
      expect(action.inputs[input], input).toBeTruthy();
    }
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with?.path).toBe('${{ inputs.report-dir }}');
    // What npm publishes it from: a package a registry page can describe (its repository's address is added when
    // it is known: a guessed one would mislead).
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.private).toBeUndefined();
    for (const field of ['description', 'license', 'keywords', 'engines', 'bin', 'files']) expect(pkg[field], field).toBeTruthy();
    expect(existsSync(join(repo, 'LICENSE'))).toBe(true);
  });

  it('a missing input is one sentence and exit 2', async () => {
    const result = await runSh({ INPUT_FIXTURES_SECRET: 'x' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^site-mcp action: the input url is missing; [^\n]+\.$/);
  });

  it('installs the packed kit, runs it against the reference and publishes the summary and outputs', async () => {
    await writeFile(join(dir, 'expected.yaml'), 'expected: []\n');
    const summary = join(dir, 'step-summary.md');
    const output = join(dir, 'github-output');
    const result = await runSh({
      INPUT_URL: target.url,
      INPUT_FIXTURES_SECRET: target.fixturesSecret,
      INPUT_DECLARATION: join(repo, 'conformance/declarations/reference.yaml'),
      INPUT_EXPECTED_FAILURES: 'expected.yaml',
      INPUT_REPORT_DIR: 'out',
      INPUT_ARGS: '--parallel 1 --tags @rule:tool-catalogue-exact',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
    });
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toMatch(/tool-catalogue-exact\s+verified/);
    for (const file of ['summary.md', 'report.html', 'junit.xml', 'conformance.json']) expect(existsSync(join(dir, 'out', file)), file).toBe(true);
    expect(await readFile(summary, 'utf8')).toBe(await readFile(join(dir, 'out', 'summary.md'), 'utf8'));
    expect(await readFile(output, 'utf8')).toBe('exit-code=0\nreport-dir=out\n');
  }, 400_000);

  it('with the input start, it starts the server under test, waits for it, runs the kit against it and stops it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const secret = 'action-started-secret-0123';
    const start = [process.execPath, '--import', import.meta.resolve('tsx/esm'), join(repo, 'reference/main.ts'), '--host', '127.0.0.1', '--port', String(port), '--data-dir', join(dir, 'started-data'), '--fixtures-secret', secret, '--no-seed', '--no-capture'].map((a) => `'${a}'`).join(' ');
    const result = await runSh({ INPUT_START: `NODE_OPTIONS= ${start}`, INPUT_URL: `http://127.0.0.1:${port}`, INPUT_FIXTURES_SECRET: secret, INPUT_REPORT_DIR: 'started', INPUT_ARGS: '--parallel 1 --tags @rule:tool-catalogue-exact' });
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toMatch(/tool-catalogue-exact\s+verified/);
    // Stopped when the step ended: nothing answers there any more.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    // A server that never answers is one sentence and exit 2, within the wait.
    const silent = await runSh({ INPUT_START: 'sleep 30', INPUT_URL: 'http://127.0.0.1:9', INPUT_FIXTURES_SECRET: 'x', INPUT_WAIT_SECONDS: '2' });
    expect(silent.code).toBe(2);
    expect(silent.stderr.trim()).toMatch(/^site-mcp action: the server the input start runs did not answer http:\/\/127\.0\.0\.1:9 within 2 s/);
  }, 400_000);
});
