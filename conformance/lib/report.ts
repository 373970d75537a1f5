// Per-rule report. Inputs: Cucumber's message stream (every @rule:<id> tag of a scenario takes that
// scenario's result) and, when given, vitest's JSON report (every `rule:<id>` in a test name takes that test's
// result). A rule passes when every scenario and test naming it passes. Expected failures
// (conformance/expected-failures.yaml) invert: a listed rule that fails is "xfail", a listed rule that now
// passes is an error, so the list cannot go stale (as modelcontextprotocol/conformance does).
import { readFileSync } from 'node:fs';
import { loadRules } from '../../spec/index.js';
import { CHECKS } from './checks.js';
import { NOT_CHECKED_MEDIA_TYPE } from './declaration.js';
import { RULE_IN_NAME } from './run-selection.js';

// Read before a run starts, so a command line can be refused without loading this module's checks (run-selection.ts).
export { ExpectedFailuresError, readExpectedFailures, rulesNamedInSuite } from './run-selection.js';

export type Status = 'passed' | 'failed';
export interface ScenarioResult {
  name: string;
  uri: string;
  /** The scenario's (or example row's) line in its feature file, for a replay by location. */
  line?: number;
  tags: string[];
  status: Status;
  /** The first failure message, when it failed. */
  message?: string;
  source: 'cucumber' | 'vitest';
  /** Checks the scenario skipped because the target did not declare the value they need (rule kit-judges-by-source). */
  notChecked?: string[];
}
export interface RuleResult { rule: string; status: Status; scenarios: ScenarioResult[] }

const RULE_TAG = /^@rule:(.+)$/;
// Worst-first ranking of Cucumber step statuses; anything but PASSED fails the scenario (a skip is a failure).
const RANK = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

/** Scenario results from Cucumber messages (an NDJSON string or parsed envelopes). */
export function scenarioResults(messages: string | Record<string, any>[]): ScenarioResult[] {
  const envelopes = typeof messages === 'string' ? messages.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>) : messages;
  const pickles = new Map<string, { name: string; uri: string; line?: number; tags: string[] }>();
  const testCases = new Map<string, string>();
  const started = new Map<string, string>();
  // pickle id -> worst step status so far (rank in RANK) and its message; UNKNOWN until a step finishes.
  const worst = new Map<string, { rank: number; message?: string }>();
  const notChecked = new Map<string, Set<string>>();
  for (const m of envelopes) {
    if (m.attachment?.mediaType === NOT_CHECKED_MEDIA_TYPE && m.attachment.testCaseStartedId) {
      const pickleId = testCases.get(started.get(m.attachment.testCaseStartedId)!);
      if (pickleId) notChecked.set(pickleId, (notChecked.get(pickleId) ?? new Set()).add(String(m.attachment.body)));
      continue;
    }
    if (m.pickle) pickles.set(m.pickle.id, { name: m.pickle.name, uri: m.pickle.uri, line: m.pickle.location?.line, tags: m.pickle.tags.map((t: { name: string }) => t.name) });
    else if (m.testCase) {
      testCases.set(m.testCase.id, m.testCase.pickleId);
      worst.set(m.testCase.pickleId, { rank: 0, message: 'the scenario did not run (no step finished)' });
    } else if (m.testCaseStarted) started.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
    else if (m.testStepFinished) {
      const pickleId = testCases.get(started.get(m.testStepFinished.testCaseStartedId)!)!;
      const result = m.testStepFinished.testStepResult as { status: string; message?: string };
      const rank = RANK.indexOf(result.status);
      if (rank > worst.get(pickleId)!.rank) worst.set(pickleId, { rank, message: result.message ?? `a step is ${result.status}` });
    }
  }
  return [...worst.entries()].map(([id, { rank, message }]) => {
    const status: Status = rank === RANK.indexOf('PASSED') ? 'passed' : 'failed';
    const skipped = notChecked.get(id);
    return { ...pickles.get(id)!, status, ...(status === 'failed' ? { message } : {}), source: 'cucumber' as const, ...(skipped ? { notChecked: [...skipped].sort() } : {}) };
  });
}

/** Test results from a vitest JSON report (`--reporter=json`); rule IDs come from `rule:<id>` in the names. */
export function vitestResults(path: string): ScenarioResult[] {
  const report = JSON.parse(readFileSync(path, 'utf8')) as {
    testResults: { name: string; assertionResults: { fullName: string; title: string; status: string; failureMessages?: string[] }[] }[];
  };
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((t) => ({
      name: t.fullName,
      uri: file.name,
      tags: [...t.fullName.matchAll(RULE_IN_NAME)].map((m) => `@rule:${m[1]}`),
      // A skipped or todo property checks nothing: it counts as a failure, like a skipped scenario.
      status: (t.status === 'passed' ? 'passed' : 'failed') as Status,
      ...(t.status !== 'passed' ? { message: t.failureMessages?.[0]?.split('\n').slice(0, 8).join('\n') ?? `test ${t.status}` } : {}),
      source: 'vitest' as const,
    })),
  );
}

export function ruleResults(scenarios: ScenarioResult[]): Map<string, RuleResult> {
  const rules = new Map<string, RuleResult>();
  for (const s of scenarios) {
    for (const tag of s.tags) {
      const rule = RULE_TAG.exec(tag)?.[1];
      if (!rule) continue;
      const r = rules.get(rule) ?? { rule, status: 'passed' as Status, scenarios: [] };
      r.scenarios.push(s);
      if (s.status === 'failed') r.status = 'failed';
      rules.set(rule, r);
    }
  }
  return rules;
}

/** Each undeclared decision a check needed, with the number of scenarios that could not check it. */
export function notCheckedTally(scenarios: ScenarioResult[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const s of scenarios) for (const what of s.notChecked ?? []) tally[what] = (tally[what] ?? 0) + 1;
  return Object.fromEntries(Object.entries(tally).sort(([a], [b]) => a.localeCompare(b)));
}

/** How many failures each generic check caused (from the failure messages). */
export function checkFailures(scenarios: ScenarioResult[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(CHECKS.map((c) => [c.name, 0]));
  for (const s of scenarios) {
    const check = /check (\w+) failed/.exec(s.message ?? '')?.[1];
    if (check) counts[check] = (counts[check] ?? 0) + 1;
  }
  return counts;
}

export interface Report {
  rules: { rule: string; status: Status | 'xfail' | 'xpass'; expectedFailureReason?: string; scenarios: ScenarioResult[] }[];
  scenarios: ScenarioResult[];
  summary: {
    rulesChecked: number;
    rulesPassed: number;
    rulesFailed: number;
    expectedFailures: number;
    unexpectedPasses: number;
    scenariosPassed: number;
    scenariosFailed: number;
    untaggedScenarios: number;
    catalogueRules: number;
    testableRules: number;
    rulesWithoutCheck: number;
    /** Testable rules no black-box check can observe (blackBox: false in spec/rules): checked by the reference's or the kit's own tests. */
    rulesNotBlackBox: number;
    /** Problems that fail the run: unexpected failures, expected failures that passed, untagged failures, unknown rules in expected-failures.yaml. */
    problems: number;
  };
  checks: Record<string, number>;
  notChecked: Record<string, number>;
  expectedFailuresUnknown: string[];
  withoutCheck: string[];
  /** Rules marked blackBox: false, with the test files that check them instead. */
  notBlackBox: { rule: string; checkedBy: string[] }[];
}

/**
 * Builds the per-rule report. `staticallyNamed` are rules a check exists for but that this run did not execute
 * (properties when no vitest report was given, @wip scenarios): they are not "without a check".
 */
export function buildReport(scenarios: ScenarioResult[], expected: Map<string, string>, staticallyNamed: Set<string> = new Set()): Report {
  const catalogue = loadRules();
  const known = new Set(catalogue.map((r) => r.id));
  const results = ruleResults(scenarios);
  const rules: Report['rules'] = [];
  let unexpected = 0;
  let xpass = 0;
  for (const r of [...results.values()].sort((a, b) => a.rule.localeCompare(b.rule))) {
    const reason = expected.get(r.rule);
    let status: Report['rules'][number]['status'] = r.status;
    if (reason !== undefined) {
      status = r.status === 'failed' ? 'xfail' : 'xpass';
      if (r.status === 'passed') xpass++;
    } else if (r.status === 'failed') unexpected++;
    rules.push({ rule: r.rule, status, ...(reason !== undefined ? { expectedFailureReason: reason } : {}), scenarios: r.scenarios });
  }
  const untagged = scenarios.filter((s) => !s.tags.some((t) => RULE_TAG.test(t)));
  const testable = catalogue.filter((r) => !r.untestable);
  // A rule no black-box check can observe is listed apart with the tests that check it, not as "without a check".
  const notBlackBox = testable.filter((r) => r.blackBox === false && !results.has(r.id) && !staticallyNamed.has(r.id));
  const withoutCheck = testable.filter((r) => r.blackBox !== false && !results.has(r.id) && !staticallyNamed.has(r.id)).map((r) => r.id);
  return {
    rules,
    scenarios,
    summary: {
      rulesChecked: results.size,
      rulesPassed: results.size - [...results.values()].filter((r) => r.status === 'failed').length,
      rulesFailed: [...results.values()].filter((r) => r.status === 'failed').length,
      expectedFailures: rules.filter((r) => r.status === 'xfail').length,
      unexpectedPasses: xpass,
      scenariosPassed: scenarios.filter((s) => s.status === 'passed').length,
      scenariosFailed: scenarios.filter((s) => s.status === 'failed').length,
      untaggedScenarios: untagged.length,
      catalogueRules: catalogue.length,
      testableRules: testable.length,
      rulesWithoutCheck: withoutCheck.length,
      rulesNotBlackBox: notBlackBox.length,
      problems: unexpected + xpass + untagged.filter((s) => s.status === 'failed').length + [...expected.keys()].filter((k) => !known.has(k)).length,
    },
    checks: checkFailures(scenarios),
    notChecked: notCheckedTally(scenarios),
    expectedFailuresUnknown: [...expected.keys()].filter((k) => !known.has(k)),
    withoutCheck,
    notBlackBox: notBlackBox.map((r) => ({ rule: r.id, checkedBy: r.checkedBy ?? [] })),
  };
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
/** A scenario whose remaining steps were skipped because the target did not declare a value they need. */
const cutShort = (s: ScenarioResult) => (s.notChecked ?? []).some((what) => what.endsWith(': the rest of the scenario'));
const STATUS_TEXT: Record<string, string> = { passed: 'passed', failed: 'failed', xfail: 'xfail', xpass: 'XPASS (remove it from expected-failures.yaml)' };

/** The report as written to reports/conformance.json: rules name their scenarios, each scenario appears once. */
export function reportJson(report: Report): unknown {
  const where = (s: ScenarioResult) => `${s.uri}${s.line ? `:${s.line}` : ''}`;
  return {
    ...report,
    rules: report.rules.map((r) => ({ ...r, scenarios: r.scenarios.map((s) => ({ name: s.name, where: where(s), status: s.status })) })),
    scenarios: report.scenarios.map((s) => ({ ...s, where: where(s) })),
  };
}

/** Prints the per-rule table and the summary. */
export function printReport(report: Report, log: (line: string) => void = console.log): void {
  const width = Math.max(8, ...report.rules.map((r) => r.rule.length)) + 2;
  log(`\n${'rule-id'.padEnd(width)}${'status'.padEnd(8)} scenarios`);
  for (const r of report.rules) {
    const counts = r.scenarios.length === 1 ? '1 scenario' : `${r.scenarios.length} scenarios`;
    // Honest coverage: a rule whose scenarios were cut short by an undeclared value passed only in part.
    const cut = r.scenarios.filter(cutShort).length;
    const partly = r.status === 'passed' && cut > 0 ? ` (${cut === r.scenarios.length ? 'all' : cut} cut short: not declared)` : '';
    log(`${r.rule.padEnd(width)}${STATUS_TEXT[r.status]!.padEnd(8)} ${counts}${partly}${r.expectedFailureReason ? ` — expected: ${clip(r.expectedFailureReason, 100)}` : ''}`);
  }
  const s = report.summary;
  const failedChecks = Object.entries(report.checks).filter(([, n]) => n > 0);
  if (failedChecks.length) log(`\ngeneric check failures: ${failedChecks.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  if (report.expectedFailuresUnknown.length) log(`\nexpected-failures.yaml names rules that are not in the catalogue: ${report.expectedFailuresUnknown.join(', ')}`);
  if (s.untaggedScenarios) log(`\n${s.untaggedScenarios} scenario(s) name no @rule tag`);
  log(
    `\n${s.rulesChecked} rules checked, ${s.rulesPassed} passed, ${s.rulesFailed} failed (${s.expectedFailures} expected, ${s.unexpectedPasses} unexpectedly passing); ` +
      `${s.rulesWithoutCheck} catalogue rules without a check (of ${s.testableRules} testable)` +
      (s.rulesNotBlackBox ? `; ${s.rulesNotBlackBox} reference-only (no black-box check can observe them)` : ''),
  );
  if (report.withoutCheck.length) log(`without a check: ${report.withoutCheck.join(', ')}`);
  for (const r of report.notBlackBox) log(`reference-only, checked by ${r.checkedBy.join(', ')}: ${r.rule}`);
  const skipped = Object.entries(report.notChecked);
  if (skipped.length) {
    log(`\nnot checked, not declared (pass --declaration to check them): ${skipped.length} decision(s)`);
    for (const [what, n] of skipped) log(`  ${what} — in ${n} scenario${n === 1 ? '' : 's'}`);
  }
  log(`${s.scenariosPassed} scenarios passed, ${s.scenariosFailed} failed`);
}

/** A short Markdown summary for a CI job page (e.g. $GITHUB_STEP_SUMMARY): totals, failed rules, not checked. */
export function summaryMarkdown(report: Report, target: string): string {
  const s = report.summary;
  const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'xpass');
  const lines = [
    `## site-mcp conformance: ${s.problems === 0 ? 'passed' : 'failed'}`,
    '',
    `Target ${target}: **${s.scenariosPassed} scenarios passed, ${s.scenariosFailed} failed**; ${s.rulesChecked} rules checked, ${s.rulesPassed} passed, ${s.rulesFailed} failed (${s.expectedFailures} expected); ${s.rulesWithoutCheck} of ${s.testableRules} testable rules have no check yet${s.rulesNotBlackBox ? `, ${s.rulesNotBlackBox} are reference-only (checked by the reference's or the kit's own tests)` : ''}.`,
  ];
  if (failed.length) lines.push('', '| failed rule | scenarios |', '|---|---|', ...failed.map((r) => `| \`${r.rule}\` | ${r.scenarios.filter((x) => x.status === 'failed').map((x) => x.name).join('; ') || r.status} |`));
  const skipped = Object.entries(report.notChecked);
  if (skipped.length) lines.push('', `Not checked, not declared (${skipped.length}):`, '', ...skipped.map(([what, n]) => `- ${what} (${n} scenario${n === 1 ? '' : 's'})`));
  return `${lines.join('\n')}\n`;
}

/**
 * The run's exit code from its report, as the CLI gives it (prove-worker.ts gives the same): 0 when nothing is a
 * problem, 1 otherwise; each reason that is not a rule's own status is logged.
 */
export function runExitCode(report: Report, cucumberSuccess: boolean, log: (line: string) => void = console.log): 0 | 1 {
  const scenarios = report.scenarios;
  // A generic check failure fails the run even inside an expected-failure rule: it is a protocol fault.
  const expectedRules = new Set(report.rules.filter((r) => r.status === 'xfail').map((r) => r.rule));
  const hiddenCheckFailures = scenarios.filter(
    (s) => s.status === 'failed' && /check \w+ failed/.test(s.message ?? '') && s.tags.every((t) => !t.startsWith('@rule:') || expectedRules.has(t.slice(6))),
  ).length;
  if (hiddenCheckFailures) log(`${hiddenCheckFailures} generic check failure(s) inside expected-failure rules: they still fail the run`);
  if (scenarios.length === 0) log('no scenario ran: check --tags and --name');
  // Cucumber failed without any failed scenario to show for it (e.g. a hook outside scenarios, a load error).
  const silentFailure = !cucumberSuccess && !scenarios.some((s) => s.status === 'failed');
  if (silentFailure) log('Cucumber reported a failure outside the scenarios; see its output above');
  return report.summary.problems + hiddenCheckFailures === 0 && scenarios.length > 0 && !silentFailure ? 0 : 1;
}
