// Joins the reports of several conformance runs into one: the shards of one run (`site-mcp conformance --shard I/N`,
// one per CI machine), each with its --report-dir.
//
//   site-mcp merge-reports [--out DIR] DIR...
//   (in a checkout of the kit: npm run merge-reports -- …)
//
// DIR...                 report directories, each holding the conformance.json a run wrote.
// --out DIR              where the merged report goes (default site-mcp-reports/ of the current folder): conformance.json,
//                        rules.json, summary.md, junit.xml and report.html, as one run writes them.
//
// Every scenario of the runs is judged again as one run would judge it (lib/report.ts): a rule's status comes from
// all its scenarios across the shards, and a rule one shard lists as expected to fail is expected in the merge. The
// reports must be the shards 1/N to N/N of one run, or runs without --shard; a scenario two of them ran stops the
// merge, as does a missing shard or a shard of another N (one sentence, exit 2: the merged counts would be wrong).
//
// Exit codes: 0 nothing failed in the merged report; 1 a check failed (or an expected failure passed); 2 the reports
// cannot be merged (a directory without conformance.json, a missing or repeated shard, a scenario run twice).
import './lib/require-node.js';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from './lib/cli-args.js';
import type { ScenarioResult } from './lib/report.js';

const repo = fileURLToPath(new URL('../', import.meta.url));

interface RunReport {
  target?: string;
  seed?: number;
  tags?: string;
  shard?: string;
  rules: { rule: string; expectedFailureReason?: string }[];
  scenarios: (ScenarioResult & { where?: string })[];
}

const { values, positionals } = parseCommandLine({
  command: 'site-mcp merge-reports',
  sourceFile: fileURLToPath(import.meta.url),
  allowPositionals: true,
  options: { out: { type: 'string' } },
});
if (positionals.length === 0) usageError('site-mcp merge-reports: name the report directories to merge, e.g. site-mcp merge-reports shard-1 shard-2.');

const runs = positionals.map((dir) => {
  const file = join(resolvePath(dir), 'conformance.json');
  if (!existsSync(file)) usageError(`${dir} holds no conformance.json; pass the --report-dir of each run.`);
  try {
    const run = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
    if (!Array.isArray(run.scenarios) || !Array.isArray(run.rules)) throw new Error('no scenarios');
    return { dir, run };
  } catch {
    return usageError(`${file} is not a report a conformance run wrote; run the suite again into that directory.`);
  }
});

// Shards: all of 1/N … N/N of one N, each once; or no shard at all.
const shards = runs.map(({ dir, run }) => ({ dir, shard: run.shard ? run.shard.split('/').map(Number) : undefined }));
if (shards.some((s) => s.shard)) {
  const unsharded = shards.find((s) => !s.shard);
  if (unsharded) usageError(`${unsharded.dir} is not a shard but others are; merge the shards of one run (--shard I/N).`);
  const count = shards[0]!.shard![1]!;
  const other = shards.find((s) => s.shard![1] !== count);
  if (other) usageError(`${other.dir} is shard ${other.shard!.join('/')} and ${shards[0]!.dir} is one of ${count}; merge the shards of one run.`);
  const seen = new Map<number, string>();
  for (const s of shards) {
    const index = s.shard![0]!;
    if (seen.has(index)) usageError(`${seen.get(index)} and ${s.dir} are both shard ${index}/${count}; pass each shard once.`);
    seen.set(index, s.dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) usageError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; pass every shard's report directory.`);
}

// Each scenario once: a scenario two reports ran would count twice.
const ranIn = new Map<string, string>();
const scenarios: ScenarioResult[] = [];
for (const { dir, run } of runs) {
  for (const { where, ...scenario } of run.scenarios) {
    const key = `${where ?? `${scenario.uri}:${scenario.line ?? ''}`} ${scenario.name}`;
    if (ranIn.has(key)) usageError(`${ranIn.get(key)} and ${dir} both ran "${scenario.name}" (${where}); merge reports of distinct scenarios, such as the shards of one run.`);
    ranIn.set(key, dir);
    scenarios.push(scenario);
  }
}
const expected = new Map(runs.flatMap(({ run }) => run.rules.filter((r) => r.expectedFailureReason !== undefined).map((r) => [r.rule, r.expectedFailureReason!] as const)));

const { buildReport, junitXml, printReport, reportJson, runExitCode, rulesMarkdown, scenariosMarkdown, summaryMarkdown, rulesNamedInSuite } = await import('./lib/report.js');
const { reportHtml } = await import('./lib/report-html.js');
const named = rulesNamedInSuite(repo);
// As a run does: the properties' rules are "without a check" only when properties ran and did not name them.
const staticallyNamed = new Set([...named.features, ...(scenarios.some((s) => s.source === 'vitest') ? [] : named.properties)]);
const report = buildReport(scenarios, expected, staticallyNamed);
const first = runs[0]!.run;
const target = [...new Set(runs.map(({ run }) => run.target ?? ''))].join(', ');
const out = resolvePath(values.out ?? 'site-mcp-reports');
await mkdir(out, { recursive: true });
printReport(report);
const json = reportJson(report) as { rules: unknown };
const finishedAt = new Date().toISOString();
await writeFile(join(out, 'conformance.json'), `${JSON.stringify({ target, seed: first.seed, tags: first.tags, mergedFrom: runs.map(({ dir, run }) => ({ dir, ...(run.shard ? { shard: run.shard } : {}) })), finishedAt, ...json }, null, 2)}\n`);
await writeFile(join(out, 'rules.json'), `${JSON.stringify({ target, seed: first.seed, rules: json.rules, summary: report.summary, notChecked: report.notChecked, choicesNotDeclared: report.choicesNotDeclared, withoutCheck: report.withoutCheck, referenceOnly: report.notBlackBox }, null, 2)}\n`);
await writeFile(join(out, 'summary.md'), summaryMarkdown(report, target));
await writeFile(join(out, 'rules.md'), rulesMarkdown(report));
await writeFile(join(out, 'scenarios.md'), scenariosMarkdown(report));
await writeFile(join(out, 'junit.xml'), junitXml(report));
await writeFile(join(out, 'report.html'), reportHtml(report, { target, seed: first.seed ?? 0, finishedAt, tags: first.tags ?? '', replays: new Map() }));
console.log(`merged ${runs.length} report${runs.length === 1 ? '' : 's'} into ${out}`);
// A shard with no scenario merges as nothing; a merge with none at all is an empty run.
process.exit(runExitCode(report, true));
