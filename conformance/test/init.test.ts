// `site-mcp init` (conformance/init.ts): against the reference it writes a declaration of what it observed (each
// entry commented with its rule) and an empty expected-failures file, both valid, and a run with the two files as
// they are passes; a mistake (no target, a wrong secret, a file that exists) is one sentence and exit 2.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeclaration } from '../lib/declaration.js';
import { readExpectedFailures } from '../lib/run-selection.js';
import { startReferenceServer, type Target } from '../lib/target.js';
import { runNode } from './run-command.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-init-'));
}, 60_000);
afterAll(async () => {
  await target?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The kit's command (bin/site-mcp.mjs, which loads tsx itself), run in `cwd` as a user would. */
const siteMcp = (args: string[], cwd = repo) => runNode([join(repo, 'bin/site-mcp.mjs'), ...args], cwd, { SITE_MCP_URL: '', SITE_MCP_FIXTURES_SECRET: '' });

const oneSentence = (text: string) => {
  expect(text.trim().split('\n'), text).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /);
};

describe('site-mcp init', () => {
  it('writes a declaration of what it observed and an empty expected-failures file, with which a run passes', async () => {
    const init = await siteMcp(['init', '--url', target.url, '--fixtures-secret', target.fixturesSecret], dir);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    const declarationFile = join(dir, 'site-mcp.declaration.yaml');
    const expectedFile = join(dir, 'site-mcp.expected-failures.yaml');
    const declaration = readDeclaration(declarationFile);
    // What the reference shows: every tool listed, OAuth metadata, an envelope for an unknown tool, both encodings,
    // the kit's section names in its world answer.
    expect(declaration).toMatchObject({ declarationVersion: 1, mcpEncoding: true, unknownTool: 'envelope', errorCodes: { unknown_tool: 'not_found' } });
    expect(declaration.notImplemented).toBeUndefined();
    expect(declaration.sections?.types?.hero).toBe('hero');
    expect(declaration.sections?.fields?.heading).toBe('heading');
    // The handshake's serverInfo names the implementation (the reference's package name and version).
    expect(declaration.implementation).toEqual({ name: 'site-mcp-reference', version: '0.1.0' });
    const text = await readFile(declarationFile, 'utf8');
    for (const rule of ['tool-result-envelope', 'error-failure-shape', 'error-codes', 'section-types', 'tool-catalogue-exact']) expect(text).toMatch(new RegExp(`# rules? [^\\n]*\\b${rule}\\b`));
    expect(readExpectedFailures(expectedFile).size).toBe(0);

    // Used as they are: the error scenarios (unknown tool, section fields, both encodings checked on every call)
    // and the catalogue scenario pass.
    const run = await siteMcp(['conformance', '--url', target.url, '--fixtures-secret', target.fixturesSecret, '--parallel', '1', '--report-dir', join(dir, 'run'), '--declaration', declarationFile, '--expected-failures', expectedFile, 'features/errors.feature', 'features/resources-prompts.feature:32']);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'run', 'conformance.json'), 'utf8')) as { summary: { problems: number; scenariosFailed: number; scenariosPassed: number }; rules: { rule: string; status: string }[] };
    expect(report.summary).toMatchObject({ problems: 0, scenariosFailed: 0 });
    expect(report.summary.scenariosPassed).toBeGreaterThan(0);
    expect(report.rules.find((r) => r.rule === 'tool-catalogue-exact')?.status).toBe('verified');

    // Files that exist are kept unless --force.
    const again = await siteMcp(['init', '--url', target.url, '--fixtures-secret', target.fixturesSecret], dir);
    expect(again.code).toBe(2);
    oneSentence(again.stderr);
    expect(again.stderr).toMatch(/exists; pass --force/);
    const forced = await siteMcp(['init', '--url', target.url, '--fixtures-secret', target.fixturesSecret, '--force'], dir);
    expect(forced.code, forced.stderr).toBe(0);
  }, 120_000);

  it('answers a missing target and a wrong secret with one sentence and exit 2, writing nothing', async () => {
    const none = await siteMcp(['init', '--declaration', 'a.yaml', '--expected-failures', 'b.yaml'], dir);
    expect(none.code).toBe(2);
    oneSentence(none.stderr);
    expect(none.stderr).toMatch(/needs the target/);
    const wrong = await siteMcp(['init', '--url', target.url, '--fixtures-secret', 'wrong', '--declaration', 'a.yaml', '--expected-failures', 'b.yaml'], dir);
    expect(wrong.code).toBe(2);
    oneSentence(wrong.stderr);
    expect(wrong.stderr).toMatch(/does not answer GET \/test-fixtures\/v1 with this secret/);
    expect(existsSync(join(dir, 'a.yaml')) || existsSync(join(dir, 'b.yaml'))).toBe(false);
  });
});
