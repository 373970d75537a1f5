// rule:kit-judges-by-source — the kit judged on a second, independent implementation: examples/second-server/, a
// small plain-JavaScript server written from the source and conformance/README.md alone, with its own choices at
// every "not shown" point (codes, fields, section vocabulary, revisions from 0 in steps of 5, keys, where the plan id
// sits) and tools it has not built. The kit runs against it twice, source-only and with its declaration, over nine
// features: nothing fails but what NOT_BUILT_SOURCE_ONLY and FALSE_FAILURES list (each list may only shrink: a listed
// scenario that passes fails this test), what it has not built is reported as not implemented, and no generic
// check fails.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// ai-images: tools it has not built (generate_image) whose scenarios arrange fixtures parts it lacks (credits, a
// failing image provider) before the call: not checked, never failed.
const FEATURES = ['site-read', 'content-write', 'reviewed-plans', 'authorization', 'scopes', 'auth', 'errors', 'activity', 'ai-images', 'rollback'].map((f) => `features/${f}.feature`);

// What the example has not built: the tools it lacks are absent from its tools/list, so the kit reports the
// scenarios that need them as not checked (not implemented) in both runs; OAuth it declares not built
// (notImplemented.parts), so only a source-only run, which cannot know, judges the OAuth scenarios and fails them.
const NOT_BUILT_SOURCE_ONLY = [
  'The 401 points at the protected-resource metadata',
  'OAuth discovery leads to an authorization server with dynamic client registration; a forged token is refused',
];

// The kit's false failures on this server, by scenario (README.md "False failures" says why the source does not
// demand each). `both`: in both runs; `declared`: only with the declaration (the source-only run cannot reach it).
const FALSE_FAILURES: Record<string, 'both' | 'declared'> = {
};


interface Report { scenarios: { name: string; where: string; status: string }[]; summary: { rulesVerified: number; rulesPartlyChecked: number; rulesNotChecked: number } }

let server: { url: string; close(): Promise<void> };
let dir: string;
const secret = randomBytes(16).toString('hex');

beforeAll(async () => {
  // The example is the system under test, not part of the kit (a plain JavaScript module without types): the test
  // starts it in this process, on port 0 of loopback.
  const example = new URL('../../examples/second-server/server.mjs', import.meta.url).href;
  const { startBakehouse } = (await import(example)) as { startBakehouse(o: { port: number; fixturesSecret: string }): Promise<{ url: string; close(): Promise<void> }> };
  server = await startBakehouse({ port: 0, fixturesSecret: secret });
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-second-'));
  await writeFile(join(dir, 'none-expected.yaml'), 'expected: []\n');
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function runKit(name: string, extra: string[]): Promise<{ code: number; output: string; report: Report }> {
  const reports = join(dir, name);
  const args = ['--import', 'tsx/esm', 'conformance/cli.ts', '--url', server.url, '--fixtures-secret', secret, '--parallel', '1', '--report-dir', reports, '--expected-failures', join(dir, 'none-expected.yaml'), ...extra, ...FEATURES];
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
    child.once('exit', (c) => resolve({ code: c ?? 1, output: out }));
  });
  const report = JSON.parse(await readFile(join(reports, 'conformance.json'), 'utf8')) as Report;
  return { code, output, report };
}

function tally(report: Report) {
  const byStatus: Record<string, number> = {};
  for (const s of report.scenarios) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const failed = [...new Set(report.scenarios.filter((s) => s.status === 'failed').map((s) => s.name))].sort();
  return { byStatus, failed };
}

describe('the kit against a second, independent implementation (examples/second-server)', () => {
  it.each([
    ['source-only', [] as string[], ['both']],
    ['declared', ['--declaration', 'examples/second-server/declaration.yaml'], ['both', 'declared']],
  ])('%s run: every scenario its tools cover passes but the known false failures', async (name, extra, kinds) => {
    const { code, output, report } = await runKit(name, extra);
    const { byStatus, failed } = tally(report);
    // The figures, for the README and the issue (vitest prints them on a failure too).
    const { rulesVerified, rulesPartlyChecked, rulesNotChecked } = report.summary;
    console.log(`second-server ${name}: ${rulesVerified} rules verified, ${rulesPartlyChecked} partly checked, ${rulesNotChecked} not checked; ${report.scenarios.length} scenarios ${JSON.stringify(byStatus)}`);
    expect(report.scenarios.length, output.slice(-3000)).toBeGreaterThan(40);
    // No generic check (envelope, not a server error, the MCP encoding) fails on this server.
    expect(output).not.toMatch(/check (not_a_server_error|envelope_conformance|mcp_encoding|error_code_known) failed/);
    // A failure outside the known list is a new false failure (or a bug of the example): red. A known one that no
    // longer fails was fixed in the kit: it is printed, so whoever fixed it removes it from FALSE_FAILURES.
    const known = [...Object.entries(FALSE_FAILURES).filter(([, k]) => kinds.includes(k)).map(([n]) => n), ...(name === 'source-only' ? NOT_BUILT_SOURCE_ONLY : [])];
    // What it has not built is reported as not implemented, never passed or failed.
    const notImplemented = report.scenarios.filter((s) => s.status === 'not-checked' && JSON.stringify(s).includes('not implemented: '));
    expect(notImplemented.length, output.slice(-3000)).toBeGreaterThan(10);
    const fixed = known.filter((n) => !failed.includes(n));
    // The list may only shrink: a known false failure that now passes fails this test until it leaves the list.
    expect(fixed, `second-server ${name}: known false failures that now pass: remove them from FALSE_FAILURES`).toEqual([]);
    expect(failed.filter((n) => !known.includes(n)), output.slice(-6000)).toEqual([]);
    expect(code).toBe(failed.length ? 1 : 0);
  }, 120_000);
});
