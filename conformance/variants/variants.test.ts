// rule:kit-judges-by-source — the suite never fails a correct implementation for a choice the source leaves
// open. A correct variant of the reference (variant-proxy.ts: every error code renamed, extra fields in data,
// errors and listed tools, errors without details, unknown tools refused with a JSON-RPC error, revisions from 0 in
// steps of 3, its own keys for added sections, grouped draft changes, its own preset labels, the export's snapshot
// as data, RFC 8628-style pairing names) must pass every
// scenario, checked by the source alone and with its own declaration. Each run starts its own reference server.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

async function runVariant(args: string[], script = 'conformance/variants/run.ts', parallel = '1'): Promise<{ code: number; output: string; summaryBytes: number; verified: Set<string> }> {
  // Reports of their own: reports/ is the features phase's run. One scenario at a time in the CLI's own process
  // (--parallel 1) unless a run says otherwise: the four runs are side by side already, and Cucumber's worker threads
  // would add CPU to every whole suite.
  const reports = await mkdtemp(join(tmpdir(), 'site-mcp-variant-reports-'));
  try {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx/esm', script, ...args, '--parallel', parallel, '--report-dir', reports], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-400_000)));
      child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-400_000)));
      child.once('exit', (code) => resolve({ code: code ?? 1, output }));
    });
    const summaryBytes = await stat(join(reports, 'summary.md')).then((s) => s.size, () => -1);
    const rules = await readFile(join(reports, 'rules.json'), 'utf8').then((text) => (JSON.parse(text) as { rules: { rule: string; status: string }[] }).rules, () => []);
    return { code, output, summaryBytes, verified: new Set(rules.filter((r) => r.status === 'verified').map((r) => r.rule)) };
  } finally {
    await rm(reports, { recursive: true, force: true });
  }
}

// What a failed assertion shows: the scenarios the run judged failed, with their reasons (the report lists them far
// above its last lines), the lines Cucumber wrote about an error, then the run's last lines.
function whatWentWrong(output: string): string {
  const lines = output.split('\n');
  const failed = lines.filter((l) => /^(failed|FAILED)\s|Error|timed out|✖/.test(l)).slice(0, 40);
  return [...failed, '…', output.slice(-3000)].join('\n');
}

// The runs wait on their servers most of the time: side by side, the file's longest chain is one whole suite, not
// two. Each has its own reference and report directory, and the three through run.ts their own proxy.
describe.concurrent('correct variants', () => {
  it('rule:kit-judges-by-source — the renamed variant passes every scenario without a declaration (source checks only)', async () => {
    // The CLI's default, Cucumber's worker threads (--parallel 2): the one whole suite of npm test that runs its
    // scenarios two at a time, as a user's default run does (the features phase runs them in the CLI's process).
    const { code, output, summaryBytes, verified } = await runVariant([], 'conformance/variants/run.ts', '2');
    expect(output, whatWentWrong(output)).toMatch(/^scenarios: \d+ passed .* 0 failed, of \d+$/m);
    expect(output).toMatch(/not checked, not declared/);
    expect(code, whatWentWrong(output)).toBe(0);
    // Its lists and ids carry names of its own (ownListNames): found by the ids the scenarios arranged, these rules
    // are verified, not merely not failed.
    for (const rule of ['list-sites-reach', 'ids-from-list-tools', 'plan-anchored-to-website', 'crm-email-never-changes', 'send-document-reviewed']) expect([...verified], rule).toContain(rule);
    // Its pairing bodies carry RFC 8628's names, which its fixtures handshake names (pairingNames): the pairing
    // scenarios run in them without a declaration.
    for (const rule of ['pairing-token-returned-once', 'pairing-grant-only-narrower', 'delivery-token-read-published-only']) expect([...verified], rule).toContain(rule);
    // A whole passing run fits on a screen or two, and its summary in a CI job page: at most 80 lines (the
    // progress lines and both eras' headers included) and 30 KB; every rule and scenario is in rules.md and
    // scenarios.md.
    expect(output.trimEnd().split('\n').length, output.slice(-4000)).toBeLessThanOrEqual(80);
    expect(summaryBytes).toBeGreaterThan(0);
    expect(summaryBytes).toBeLessThanOrEqual(30 * 1024);
  }, 300_000);

  it('rule:kit-judges-by-source — the renamed variant passes every scenario with its own declaration (renamed codes checked)', async () => {
    const { code, output } = await runVariant(['--declared']);
    expect(output, whatWentWrong(output)).toMatch(/^scenarios: \d+ passed .* 0 failed, of \d+$/m);
    // The variant moves the plan id to plan.id and declares that pointer: the plan scenarios ran, not cut short.
    expect(output).not.toMatch(/the plan id in a prepare_\* answer/);
    expect(code, whatWentWrong(output)).toBe(0);
  }, 300_000);

  it('rule:authz-denial-order — a variant answering one code for every refusal passes without a declaration: which refusal came first is reported not checked', async () => {
    const { code, output } = await runVariant(['--one-code', '--protocol', '2025-11-25', 'features/authorization.feature']);
    expect(output, whatWentWrong(output)).toMatch(/^scenarios: \d+ passed .* 0 failed, of \d+$/m);
    expect(output).toMatch(/which refusal comes first: the target answers one code \(E_REFUSED\) for scope_denied and area_disabled/);
    expect(code, whatWentWrong(output)).toBe(0);
  }, 300_000);

  it('rule:kit-judges-by-source — declared checks bite: the same variant run with the reference\'s declaration fails', async () => {
    // The error scenarios are enough to show it (every renamed code fails error_object_conformance there); the two
    // runs above are the whole suite, this one need not be.
    const { code, output } = await runVariant(['--declaration', 'conformance/declarations/reference.yaml', 'features/errors.feature']);
    expect(output).toMatch(/generic check failures: .*error_object_conformance/);
    expect(output).toMatch(/^scenarios: .* [1-9]\d* failed, of \d+$/m);
    expect(code).toBe(1);
  }, 300_000);

  // §4.1 shows no pairing field names but websiteId, §3 no state names: a target with names of its own (the variant's
  // RFC 8628-style RENAMED_PAIRING), declared under pairing, has the source's pairing rules checked to the end.
  it('rule:kit-judges-by-source — the variant with its own pairing names passes the pairing scenarios to the end under its declaration', async () => {
    const { code, output } = await runVariant(['--declared', '--protocol', '2025-11-25', 'features/pairing.feature']);
    // Every scenario that needs only the names ran to the end (none "not checked"); those of decisions the variant
    // does not adopt (pairing-field-names itself among them) are not applicable.
    const passed = /^scenarios: (\d+) passed .* 0 not checked, .* 0 failed, of \d+$/m.exec(output);
    expect(passed, whatWentWrong(output)).not.toBeNull();
    // start-poll-approve-redeem, editor refused, company-wide, admin, read-only delivery, approval page. The delivery
    // read goes to the variant's own declared address (pairing.deliveryPath): the proxy answers 404 at ours.
    expect(Number(passed![1])).toBeGreaterThanOrEqual(6);
    expect(output).not.toMatch(/the pairing field names \(declare them/);
    expect(output).not.toMatch(/where a delivery token reads the published site/);
    expect(output).toMatch(/decision not adopted: pairing-field-names/);
    expect(code, whatWentWrong(output)).toBe(0);
  }, 300_000);

  // A refusal of an unknown tool is its own kind (errorCodes.unknown_tool), not the code of a missing id.
  it('rule:kit-judges-by-source — the variant that refuses an unknown tool with a code of its own passes the error scenarios, declared and not', async () => {
    for (const declaration of [['--declaration', 'conformance/variants/own-unknown-tool.declaration.yaml'], []]) {
      const { code, output } = await runVariant(['--own-unknown-tool-code', ...declaration, 'features/errors.feature', 'features/activity.feature']);
      expect(output).toMatch(/\b0 failed\b/);
      expect(code, whatWentWrong(output)).toBe(0);
    }
  }, 300_000);

  // An export whose data holds no snapshot naming PortableSiteV1 fails a source-only run too: the snapshot is found
  // by meaning.
  it('rule:portable-site-v1-name — a server answering a wrong snapshot fails the export scenarios without a declaration', async () => {
    const { code, output } = await runVariant(['--break', 'portable-site-v1-name', 'features/site-read.feature'], 'conformance/cli.ts');
    expect(output).toMatch(/Export carries the draft, not the live site, in PortableSiteV1/);
    expect(output).toMatch(/holds no snapshot that names PortableSiteV1/);
    expect(code).toBe(1);
  }, 300_000);

  // The 401 scenario does not need an authorization server with dynamic client registration.
  it('rule:mcp-requires-bearer — the 401 scenario passes against a server whose authorization server offers no registration', async () => {
    const { code, output } = await runVariant(['--break', 'oauth-dynamic-client-registration', '--tags', '@rule:mcp-requires-bearer', 'features/auth.feature'], 'conformance/cli.ts');
    // The 401 scenarios ran to the end in every era (the OAuth discovery one is not tagged with this rule).
    expect(output, whatWentWrong(output)).toMatch(/^scenarios: [1-9]\d* passed/m);
    expect(output).toMatch(/\b0 failed\b/);
    expect(code, whatWentWrong(output)).toBe(0);
  }, 300_000);

  it('rule:kit-judges-by-source — a declared section vocabulary is used: field names the target does not have fail the content scenarios', async () => {
    const { code, output } = await runVariant(['--declaration', 'conformance/variants/wrong-vocabulary.declaration.yaml', 'features/content-write.feature'], 'conformance/cli.ts');
    expect(output).toMatch(/^scenarios: .* [1-9]\d* failed, of \d+$/m);
    expect(code).toBe(1);
  }, 300_000);
});
