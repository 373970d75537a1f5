// rule:kit-judges-by-source — the kit judged on a second, independent implementation (issue 29 part 5):
// examples/second-server/, a small plain-JavaScript server written from the source and conformance/README.md alone,
// with its own choices at every "not shown" point (codes, fields, section vocabulary, revisions from 0 in steps of 5,
// keys, where the plan id sits). The kit runs against it twice, source-only and with its declaration, over the
// scenarios its tools cover. Every scenario must pass except the kit's known FALSE FAILURES listed below (the kit
// demands what the source does not say; examples/second-server/README.md gives each reason): this file stays green
// while they are there, goes red when a new failure appears, and prints a known one that was fixed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const FEATURES = ['site-read', 'content-write', 'reviewed-plans', 'authorization', 'scopes', 'auth', 'errors', 'activity'].map((f) => `features/${f}.feature`);

// Scenarios that need a tool or part the example does not build (the kit has no way yet to declare a partial
// implementation, issue 29 item 4): left out of the runs by name.
const NOT_IMPLEMENTED = [
  'The contact block and the analytics identifiers of a site travel in its export', // import_site
  'Access invitations: editor or viewer only, owner-only, nothing before confirm, no link', // access:write
  'Any edit to a document voids its send plan', // communications:write
  'A product becomes public only through an approved plan', // commerce:write
  'Search visibility changes only after approval', // settings:write
  'A company is created only after approval, on plan free, and the anchor site is untouched', // workspace:write
  'An area switched off after approval blocks the confirm of its plan', // commerce:write
  'The scope is named before a changed role, and a changed role before a switched-off area', // communications:write
  'An area the agency switched off blocks every tool of that area, reads and writes alike', // crm, commerce
  "Removing the creator's membership disables the connection; a missing scope is named first", // update_business_name
  'A connection without content:write is refused edits but always holds site:read', // update_business_name
  'A connection made under the earlier, narrower full keeps its scopes and shows as Custom', // generate_image
  'domain:write satisfies domain:read, and domain:read grants nothing else', // domain tools
  'Each call writes exactly one entry naming the tool and the outcome, failures with their code', // update_business_name
  'A cross-tenant miss is logged, and no entry carries personal data or argument values', // list_leads
  'The owner reads each call of a connection, with its outcome, as the Developers settings show it', // update_business_name
  'OAuth discovery leads to an authorization server with dynamic client registration; a forged token is refused', // OAuth
];

// The kit's false failures on this server, by scenario (README.md "False failures" says why the source does not
// demand each). `both`: in both runs; `declared`: only with the declaration (the source-only run cannot reach it).
const FALSE_FAILURES: Record<string, 'both' | 'declared'> = {
  // absolute site revision "1" (our drafts start at revision 0)
  'Every read tool answers without changing the draft, the revision or the live site': 'declared',
  // absolute site revision "2" (ours moves by 5); after it: externalKey "home/<type>", 7 change entries
  'Every content tool changes the draft and never the live site': 'declared',
  // a fixtures refusal of reach "galaxy" must carry the code validation_failed (ours: BAD_INPUT)
  'The read-only preset grants site:read only; reach is website or workspace': 'both',
  // the full preset's label must be "Full access" (ours: "Everything")
  'The full preset grants every scope, ai:generate and workspace:write included': 'both',
  // a scope that did not exist yet must be refused at creation (we leave it out of the connection)
  'A connection holds only the scopes that existed when it was made': 'both',
  // the 401 must name OAuth protected-resource metadata (we offer API tokens only)
  'Without a valid bearer token the endpoint answers 401 pointing at the protected-resource metadata': 'both',
  // an unknown tool compared with the not_found code; "../../etc/passwd" and a NUL in an id must be validation_failed
  'Odd or oversized arguments answer an envelope with a stable code, never a crash': 'declared',
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME_FILTER = `^(?!(?:${NOT_IMPLEMENTED.map(escape).join('|')})$)`;

interface Report { scenarios: { name: string; where: string; status: string }[] }

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
  const args = ['--import', 'tsx/esm', 'conformance/cli.ts', '--url', server.url, '--fixtures-secret', secret, '--parallel', '1', '--report-dir', reports, '--expected-failures', join(dir, 'none-expected.yaml'), '--name', NAME_FILTER, ...extra, ...FEATURES];
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
    console.log(`second-server ${name}: ${report.scenarios.length} scenarios ${JSON.stringify(byStatus)}`);
    expect(report.scenarios.length, output.slice(-3000)).toBeGreaterThan(40);
    // No generic check (envelope, not a server error, the MCP encoding) fails on this server.
    expect(output).not.toMatch(/check (not_a_server_error|envelope_conformance|mcp_encoding|error_code_known) failed/);
    // A failure outside the known list is a new false failure (or a bug of the example): red. A known one that no
    // longer fails was fixed in the kit: it is printed, so whoever fixed it removes it from FALSE_FAILURES.
    const known = Object.entries(FALSE_FAILURES).filter(([, k]) => kinds.includes(k)).map(([n]) => n);
    const fixed = known.filter((n) => !failed.includes(n));
    if (fixed.length) console.log(`second-server ${name}: known false failures that now pass (remove them from FALSE_FAILURES): ${JSON.stringify(fixed)}`);
    expect(failed.filter((n) => !known.includes(n)), output.slice(-6000)).toEqual([]);
    expect(code).toBe(failed.length ? 1 : 0);
  }, 120_000);
});
