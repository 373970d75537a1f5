// Usage: npx tsx conformance/official-suite.ts --url <MCP endpoint> --token <bearer> [--baseline FILE] [--timeout-ms N]
//
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, the version pinned in package.json,
// a dev dependency) against an MCP endpoint that needs a bearer token, through the kit's header-adding loopback
// proxy (conformance/lib/bearer-proxy.ts), and compares the outcome with the baseline of not-applicable scenarios
// (default conformance/official-mcp-baseline.yaml: 0.1.16's active suite, 2025-era wire). The second run,
// `--baseline conformance/official-mcp-baseline-2026-07-28.yaml`, is 0.2.0-alpha's requirement set for protocol
// revision 2026-07-28 (installed as @modelcontextprotocol/conformance-next), judged per check. The token may also
// come from SITE_MCP_TOKEN.
//
// Exit codes: 0 the outcome matches the baseline, 1 it does not (an unlisted failure or a stale entry),
// 2 usage error or the suite could not run.
import './lib/require-node.js';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from './lib/cli-args.js';
import { compareWithBaseline, loadOfficialBaseline, runOfficialSuite } from './lib/official-suite.js';

const { values } = parseCommandLine({
  sourceFile: fileURLToPath(import.meta.url),
  command: 'official-suite',
  options: { url: { type: 'string' }, token: { type: 'string' }, baseline: { type: 'string' }, 'timeout-ms': { type: 'string' } },
});
const token = values.token ?? process.env.SITE_MCP_TOKEN;
if (!values.url || !token) usageError('official-suite: give --url (the MCP endpoint) and --token (or SITE_MCP_TOKEN); run with --help for the options.');
const timeoutMs = Number(values['timeout-ms'] ?? 120_000);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) usageError('official-suite: --timeout-ms must be a positive whole number of milliseconds.');

// Before a run of 30 scenarios: is the endpoint there, and does it take this token? (exit 2, one sentence)
try {
  const answer = await fetch(values.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'site-mcp-official-suite', version: '1' } } }),
    signal: AbortSignal.timeout(15_000),
  });
  await answer.body?.cancel();
  if (answer.status === 401 || answer.status === 403) usageError(`official-suite: ${values.url} refused this token (HTTP ${answer.status}); give a valid bearer token for that endpoint.`);
  if (answer.status === 404) usageError(`official-suite: ${values.url} answered 404; give the MCP endpoint itself (for this interface <base>/api/mcp).`);
} catch (error) {
  usageError(`official-suite: cannot reach ${values.url} (${(error as Error).message}); is the server running there?`);
}

let baseline;
try {
  baseline = await loadOfficialBaseline(values.baseline ?? fileURLToPath(new URL('official-mcp-baseline.yaml', import.meta.url)));
} catch (error) {
  usageError(`official-suite: ${(error as Error).message.split('\n')[0]}`);
}
let run;
try {
  run = await runOfficialSuite({ mcpUrl: values.url, token, baseline, timeoutMs });
} catch (error) {
  usageError(`official-suite: the suite could not run: ${(error as Error).message.split('\n')[0]}`);
}
if (run.timedOut || run.outcomes.length === 0) usageError(`official-suite: the suite ${run.timedOut ? `did not finish within ${timeoutMs} ms` : 'ran no scenario'}; its output ends: ${run.stdout.slice(-300).trim()}`);

const judged = compareWithBaseline(run.outcomes, baseline);
const unexpected = new Set(judged.unexpectedFailures.map((o) => o.scenario));
const stale = new Set(judged.stale.map((key) => key.split(':')[0]));
// ✓ passed, ~ failed only where the baseline says it does not apply, ✗ failed otherwise, ! a listed entry passed.
for (const o of run.outcomes) {
  const mark = unexpected.has(o.scenario) ? '✗' : stale.has(o.scenario) ? '!' : o.failed ? '~' : '✓';
  console.log(`${mark} ${o.scenario}${o.failed ? ` — ${o.failures.join('; ')}` : ''}`);
}
const problems = [
  ...judged.unexpectedFailures.map((o) => `failed and not in the baseline: ${o.scenario}`),
  ...judged.stale.map((s) => `in the baseline but passed (remove the entry): ${s}`),
  ...judged.unknown.map((s) => `in the baseline but not run by this version of the suite: ${s}`),
  ...judged.withoutReason.map((s) => `in the baseline without a reason: ${s}`),
];
const passed = run.outcomes.filter((o) => !o.failed).length;
const what = baseline.requirements ? `requirements ${baseline.requirements}` : 'active suite';
console.log(`\n${passed} passed, ${run.outcomes.length - passed} failed (${Object.keys(baseline.notApplicable).length} entries listed as not applicable), suite ${baseline.version}, ${what}`);
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
