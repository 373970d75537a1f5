// Per-rule report. Inputs: Cucumber's message stream (every @rule:<id> tag of a scenario takes that
// scenario's result) and, when given, vitest's JSON report (every `rule:<id>` in a test name takes that test's
// result). Only what was checked is reported as such (conformance/docs/report.md, "Report: only what was checked"):
// - a scenario is `passed` only when every step ran and nothing inside it was skipped; one that stopped at a step
//   (a value the target did not declare, an optional fixtures part it lacks) is `not-checked` when no outcome step
//   (Then) had passed before it, `partly-checked` when one had, or when it ran to the end with a check skipped;
//   `not-applicable` when it stopped, before any outcome, at a decision rule the target does not adopt (the source
//   does not require it); `failed` when a step failed. Each stop names its step and its reason.
// - a rule is `verified` only when at least one scenario (or property) naming it passed and none failed; else
//   `failed`, `partly-checked`, `not-checked` or `not-applicable`, the best that any of its scenarios reached.
// Expected failures (conformance/expected-failures.yaml) invert: a listed rule that fails is "xfail", a listed
// rule that is now verified is an error, so the list cannot go stale (as modelcontextprotocol/conformance does).
import { readFileSync } from 'node:fs';
import { loadRules } from '../../spec/index.js';
import { CHECKS } from './checks.js';
import { CHOICE_NOT_DECLARED_MEDIA_TYPE, NOT_CHECKED_MEDIA_TYPE } from './declaration.js';
import { TRANSCRIPT_MEDIA_TYPE } from './transcript.js';
import { RULE_IN_NAME } from './run-selection.js';

// Read before a run starts, so a command line can be refused without loading this module's checks (run-selection.ts).
export { ExpectedFailuresError, readExpectedFailures, rulesNamedInSuite } from './run-selection.js';

/** A scenario's verdict (conformance/docs/report.md, "Report: only what was checked"). */
export type ScenarioStatus = 'passed' | 'partly-checked' | 'not-checked' | 'not-applicable' | 'failed';
/** A rule's verdict, from its scenarios; xfail and xpass when conformance/expected-failures.yaml lists it. */
export type RuleStatus = 'verified' | 'partly-checked' | 'not-checked' | 'not-applicable' | 'failed';

/** A step where something was not checked, and why. */
export interface NotCheckedAt {
  /** The step as written in its feature file (keyword and text), or the property's name. */
  step: string;
  /** The step's line in its feature file. */
  line?: number;
  /** Why: the value, decision or optional fixtures part the check needed (or Cucumber's own reason). */
  reason: string;
}
export interface ScenarioResult {
  name: string;
  uri: string;
  /** The scenario's (or example row's) line in its feature file, for a replay by location. */
  line?: number;
  tags: string[];
  status: ScenarioStatus;
  /** The first failure message, when it failed. */
  message?: string;
  source: 'cucumber' | 'vitest';
  /** The MCP protocol era it ran in (the kit runs the features once per era the target offers). */
  era?: string;
  /** Seconds its steps took (for JUnit). */
  seconds?: number;
  /** Where the scenario stopped before its end, and why (not-checked, not-applicable, or partly-checked after a check ran). */
  stoppedAt?: NotCheckedAt;
  /** Checks skipped inside steps that ran on (the scenario is partly-checked at best). */
  skippedChecks?: NotCheckedAt[];
  /** Every reason above, as the steps wrote it (rule kit-judges-by-source): the tally of what to declare. */
  notChecked?: string[];
  /**
   * The target's choices (values the source leaves open) the scenario could not compare because they were not
   * declared. Its source checks ran: these never make it partly checked, and are listed apart.
   */
  choicesNotDeclared?: string[];
  /** For a failed step: what the kit sent and got (conformance/lib/transcript.ts), redacted, with a curl line. */
  transcripts?: { step: string; line?: number; text: string }[];
}
export interface RuleResult { rule: string; status: RuleStatus; scenarios: ScenarioResult[] }

const RULE_TAG = /^@rule:(.+)$/;
/** The note a step leaves when it stops its scenario (features/support/declared.ts). */
const REST_OF_SCENARIO = ': the rest of the scenario';
/** A decision rule the target does not adopt (`Given the target adopts the decision …`, `{{decision:…}}`). */
const NOT_ADOPTED = /^(\S+) \(adopts\)$/;
// Worst-first ranking of the statuses that fail a scenario: a step that did not pass and was not skipped.
const FAILING = ['PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

interface StepInfo { step: string; line?: number; outcome: boolean }
interface Attempt { steps: { id: string; pickleStepId?: string }[]; finished: Map<string, { status: string; message?: string; seconds: number }>; notes: { testStepId?: string; body: string }[]; choices: string[]; transcripts: { testStepId?: string; body: string }[] }

/** Each Gherkin step's keyword and line, by its id, from a gherkinDocument (backgrounds, rules, scenarios). */
function collectSteps(node: unknown, into: Map<string, { keyword: string; line?: number }>): void {
  if (Array.isArray(node)) for (const item of node) collectSteps(item, into);
  else if (node && typeof node === 'object') {
    const steps = (node as { steps?: { id: string; keyword: string; location?: { line: number } }[] }).steps;
    if (Array.isArray(steps)) for (const s of steps) into.set(s.id, { keyword: s.keyword, line: s.location?.line });
    for (const [key, value] of Object.entries(node)) if (key !== 'steps' && typeof value === 'object') collectSteps(value, into);
  }
}

const seconds = (d?: { seconds: number; nanos: number }) => (d ? d.seconds + d.nanos / 1e9 : 0);

/** Scenario results from Cucumber messages (an NDJSON string or parsed envelopes). */
export function scenarioResults(messages: string | Record<string, any>[]): ScenarioResult[] {
  const envelopes = typeof messages === 'string' ? messages.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>) : messages;
  const gherkinSteps = new Map<string, { keyword: string; line?: number }>();
  const pickles = new Map<string, { name: string; uri: string; line?: number; tags: string[]; steps: Map<string, StepInfo> }>();
  const testCases = new Map<string, { pickleId: string; steps: Attempt['steps'] }>();
  // pickle id -> its last attempt (a retried scenario is judged by its last attempt).
  const attempts = new Map<string, Attempt>();
  const started = new Map<string, string>();
  const order: string[] = [];
  for (const m of envelopes) {
    if (m.gherkinDocument) collectSteps(m.gherkinDocument.feature, gherkinSteps);
    else if (m.pickle) {
      const steps = new Map<string, StepInfo>();
      for (const s of m.pickle.steps as { id: string; text: string; type?: string; astNodeIds: string[] }[]) {
        const written = gherkinSteps.get(s.astNodeIds[0]!);
        steps.set(s.id, { step: `${written?.keyword ?? ''}${s.text}`.trim(), line: written?.line, outcome: s.type === 'Outcome' });
      }
      pickles.set(m.pickle.id, { name: m.pickle.name, uri: m.pickle.uri, line: m.pickle.location?.line, tags: m.pickle.tags.map((t: { name: string }) => t.name), steps });
    } else if (m.testCase) {
      testCases.set(m.testCase.id, { pickleId: m.testCase.pickleId, steps: m.testCase.testSteps });
      if (!order.includes(m.testCase.pickleId)) order.push(m.testCase.pickleId);
      attempts.set(m.testCase.pickleId, { steps: m.testCase.testSteps, finished: new Map(), notes: [], choices: [], transcripts: [] });
    } else if (m.testCaseStarted) {
      started.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
      const testCase = testCases.get(m.testCaseStarted.testCaseId);
      if (testCase) attempts.set(testCase.pickleId, { steps: testCase.steps, finished: new Map(), notes: [], choices: [], transcripts: [] });
    } else if (m.testStepFinished) {
      const pickleId = testCases.get(started.get(m.testStepFinished.testCaseStartedId)!)?.pickleId;
      const result = m.testStepFinished.testStepResult as { status: string; message?: string; duration?: { seconds: number; nanos: number } };
      if (pickleId) attempts.get(pickleId)!.finished.set(m.testStepFinished.testStepId, { status: result.status, message: result.message, seconds: seconds(result.duration) });
    } else if (m.attachment?.mediaType === NOT_CHECKED_MEDIA_TYPE && m.attachment.testCaseStartedId) {
      const pickleId = testCases.get(started.get(m.attachment.testCaseStartedId)!)?.pickleId;
      if (pickleId) attempts.get(pickleId)!.notes.push({ testStepId: m.attachment.testStepId, body: String(m.attachment.body) });
    } else if (m.attachment?.mediaType === CHOICE_NOT_DECLARED_MEDIA_TYPE && m.attachment.testCaseStartedId) {
      const pickleId = testCases.get(started.get(m.attachment.testCaseStartedId)!)?.pickleId;
      if (pickleId) attempts.get(pickleId)!.choices.push(String(m.attachment.body));
    } else if (m.attachment?.mediaType === TRANSCRIPT_MEDIA_TYPE && m.attachment.testCaseStartedId) {
      const pickleId = testCases.get(started.get(m.attachment.testCaseStartedId)!)?.pickleId;
      if (pickleId) attempts.get(pickleId)!.transcripts.push({ testStepId: m.attachment.testStepId, body: String(m.attachment.body) });
    }
  }
  return order.map((pickleId) => judge(pickles.get(pickleId)!, attempts.get(pickleId)!));
}

/** One scenario's verdict from its steps' results and its not-checked notes (the rules at the top of this file). */
function judge(pickle: { name: string; uri: string; line?: number; tags: string[]; steps: Map<string, StepInfo> }, attempt: Attempt): ScenarioResult {
  const { steps: pickleSteps, ...scenario } = pickle;
  const choices = attempt.choices.length ? { choicesNotDeclared: [...new Set(attempt.choices)].sort() } : {};
  const base = { ...scenario, source: 'cucumber' as const, seconds: [...attempt.finished.values()].reduce((sum, f) => sum + f.seconds, 0), ...choices };
  const where = (testStepId?: string) => {
    const pickleStepId = attempt.steps.find((s) => s.id === testStepId)?.pickleStepId;
    const info = pickleStepId ? pickleSteps.get(pickleStepId) : undefined;
    return { step: info?.step ?? 'a hook', ...(info?.line ? { line: info.line } : {}) };
  };
  const notChecked = attempt.notes.length ? { notChecked: [...new Set(attempt.notes.map((n) => n.body))].sort() } : {};
  // A step that failed (or is undefined, ambiguous, pending) fails the scenario, whatever else happened.
  let worst: { rank: number; message?: string } = { rank: -1 };
  for (const f of attempt.finished.values()) {
    const rank = FAILING.indexOf(f.status);
    if (rank > worst.rank) worst = { rank, message: f.message ?? `a step is ${f.status}` };
  }
  const transcripts = attempt.transcripts.length ? { transcripts: attempt.transcripts.map((t) => ({ ...where(t.testStepId), text: t.body })) } : {};
  if (worst.rank >= 0) return { ...base, status: 'failed', message: worst.message, ...notChecked, ...transcripts };
  if (attempt.finished.size === 0) return { ...base, status: 'failed', message: 'the scenario did not run (no step finished)', ...notChecked };
  // Where it stopped: the step that said "the rest of the scenario", else the first step Cucumber skipped or never finished.
  const cut = attempt.notes.find((n) => n.body.endsWith(REST_OF_SCENARIO));
  const stepIds = attempt.steps.filter((s) => s.pickleStepId).map((s) => s.id);
  const stopId = cut?.testStepId ?? stepIds.find((id) => attempt.finished.get(id)?.status !== 'PASSED');
  const skippedChecks = attempt.notes.filter((n) => n !== cut).map((n) => ({ ...where(n.testStepId), reason: n.body }));
  const skipped = skippedChecks.length ? { skippedChecks } : {};
  if (stopId === undefined) return { ...base, status: skippedChecks.length ? 'partly-checked' : 'passed', ...skipped, ...notChecked };
  const reason = cut ? cut.body.slice(0, -REST_OF_SCENARIO.length) : `Cucumber ${attempt.finished.get(stopId)?.status === 'SKIPPED' ? 'skipped this step' : 'did not finish this step'}`;
  const stoppedAt = { ...where(stopId), reason };
  // An outcome (a Then step) that passed before the stop checked something; arrangements and calls alone did not.
  const before = stepIds.slice(0, stepIds.indexOf(stopId));
  const checked = before.some((id) => attempt.finished.get(id)?.status === 'PASSED' && pickleSteps.get(attempt.steps.find((s) => s.id === id)!.pickleStepId!)?.outcome);
  const status: ScenarioStatus = checked ? 'partly-checked' : NOT_ADOPTED.test(reason) ? 'not-applicable' : 'not-checked';
  return { ...base, status, stoppedAt, ...skipped, ...notChecked };
}

/** Test results from a vitest JSON report (`--reporter=json`); rule IDs come from `rule:<id>` in the names. */
export function vitestResults(path: string): ScenarioResult[] {
  const report = JSON.parse(readFileSync(path, 'utf8')) as {
    testResults: { name: string; assertionResults: { fullName: string; title: string; status: string; duration?: number; failureMessages?: string[] }[] }[];
  };
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((t): ScenarioResult => {
      const common = { name: t.fullName, uri: file.name, tags: [...t.fullName.matchAll(RULE_IN_NAME)].map((m) => `@rule:${m[1]}`), source: 'vitest' as const, ...(t.duration !== undefined ? { seconds: t.duration / 1000 } : {}) };
      if (t.status === 'passed') return { ...common, status: 'passed' };
      if (t.status === 'failed') return { ...common, status: 'failed', message: t.failureMessages?.[0]?.split('\n').slice(0, 8).join('\n') ?? 'test failed' };
      // A skipped, todo or pending property checked nothing: not checked, never a pass (and not a failure).
      const reason = `vitest reports the property ${t.status}`;
      return { ...common, status: 'not-checked', stoppedAt: { step: t.title, reason }, notChecked: [reason] };
    }),
  );
}

/** A rule's verdict from its scenarios: failed if one failed, verified if one passed, else the best one reached. */
export function ruleStatus(scenarios: ScenarioResult[]): RuleStatus {
  const has = (status: ScenarioStatus) => scenarios.some((s) => s.status === status);
  if (has('failed')) return 'failed';
  if (has('passed')) return 'verified';
  if (has('partly-checked')) return 'partly-checked';
  if (has('not-checked')) return 'not-checked';
  return 'not-applicable';
}

export function ruleResults(scenarios: ScenarioResult[]): Map<string, RuleResult> {
  const rules = new Map<string, RuleResult>();
  for (const s of scenarios) {
    for (const tag of s.tags) {
      const rule = RULE_TAG.exec(tag)?.[1];
      if (!rule) continue;
      const r = rules.get(rule) ?? { rule, status: 'not-applicable' as RuleStatus, scenarios: [] };
      r.scenarios.push(s);
      rules.set(rule, r);
    }
  }
  for (const r of rules.values()) r.status = ruleStatus(r.scenarios);
  return rules;
}

/** Each undeclared value (or missing part) a check needed, with the number of scenarios that could not check it. */
export function notCheckedTally(scenarios: ScenarioResult[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const s of scenarios) for (const what of s.notChecked ?? []) tally[what] = (tally[what] ?? 0) + 1;
  return Object.fromEntries(Object.entries(tally).sort(([a], [b]) => a.localeCompare(b)));
}

/** Each undeclared choice of the target's, with the number of scenarios that could not compare it. */
export function choicesTally(scenarios: ScenarioResult[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const s of scenarios) for (const what of s.choicesNotDeclared ?? []) tally[what] = (tally[what] ?? 0) + 1;
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
  rules: { rule: string; status: RuleStatus | 'xfail' | 'xpass'; expectedFailureReason?: string; scenarios: ScenarioResult[] }[];
  scenarios: ScenarioResult[];
  summary: {
    /** Rules at least one scenario or property of this run names; each is counted once below, by its status. */
    rulesRun: number;
    /** At least one scenario naming the rule passed (every step ran, no source check skipped) and none failed. */
    rulesVerified: number;
    rulesPartlyChecked: number;
    rulesNotChecked: number;
    /** Every scenario naming the rule is not-applicable: it checks a decision the target does not adopt. */
    rulesNotApplicable: number;
    /** Failed rules, the expected failures (xfail) among them. */
    rulesFailed: number;
    expectedFailures: number;
    unexpectedPasses: number;
    scenarios: number;
    scenariosPassed: number;
    scenariosPartlyChecked: number;
    scenariosNotChecked: number;
    scenariosNotApplicable: number;
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
  /** The target's choices no scenario could compare, not being declared (apart from the source verdict). */
  choicesNotDeclared: Record<string, number>;
  expectedFailuresUnknown: string[];
  withoutCheck: string[];
  /** Rules marked blackBox: false, with the test files that check them instead. */
  notBlackBox: { rule: string; checkedBy: string[] }[];
  /** Each MCP protocol era the kit speaks: offered by the target or not, checked in this run or not (cli.ts sets it). */
  eras?: EraSummary[];
}

/**
 * One MCP protocol era of a run. An era the target does not offer is reported so and never fails the run: the
 * source names no MCP revision, so a target is judged on the eras it speaks.
 */
export interface EraSummary {
  era: string;
  offered: boolean;
  /** Run in this run (offered, and chosen by --protocol). */
  checked: boolean;
  /** What the target answered the era's first request (server/discover or initialize), when it is not offered. */
  answer?: string;
  /** Wall-clock seconds of the era's Cucumber run. */
  seconds?: number;
}

/** One line per era: its scenario counts and time, or why it was not checked. */
export function eraLines(report: Report): string[] {
  return (report.eras ?? []).map((e) => {
    if (!e.offered) return `era ${e.era}: not offered by the target (${e.answer ?? 'no answer'}): not checked, never a failure`;
    if (!e.checked) return `era ${e.era}: offered by the target, not in this run (--protocol)`;
    return `era ${e.era}: ${scenarioCounts(report.scenarios.filter((x) => x.era === e.era))}${e.seconds === undefined ? '' : ` (${e.seconds.toFixed(1)} s)`}`;
  });
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
    // A listed rule that fails is expected; one now verified must leave the list. One that was not checked to the
    // end says nothing either way: it keeps its status and its reason.
    if (reason !== undefined && r.status === 'failed') status = 'xfail';
    else if (reason !== undefined && r.status === 'verified') {
      status = 'xpass';
      xpass++;
    } else if (r.status === 'failed') unexpected++;
    rules.push({ rule: r.rule, status, ...(reason !== undefined ? { expectedFailureReason: reason } : {}), scenarios: r.scenarios });
  }
  const untagged = scenarios.filter((s) => !s.tags.some((t) => RULE_TAG.test(t)));
  const testable = catalogue.filter((r) => !r.untestable);
  // A rule no black-box check can observe is listed apart with the tests that check it, not as "without a check".
  const notBlackBox = testable.filter((r) => r.blackBox === false && !results.has(r.id) && !staticallyNamed.has(r.id));
  const withoutCheck = testable.filter((r) => r.blackBox !== false && !results.has(r.id) && !staticallyNamed.has(r.id)).map((r) => r.id);
  const ruleCount = (status: RuleStatus) => [...results.values()].filter((r) => r.status === status).length;
  const scenarioCount = (status: ScenarioStatus) => scenarios.filter((s) => s.status === status).length;
  return {
    rules,
    scenarios,
    summary: {
      rulesRun: results.size,
      rulesVerified: ruleCount('verified'),
      rulesPartlyChecked: ruleCount('partly-checked'),
      rulesNotChecked: ruleCount('not-checked'),
      rulesNotApplicable: ruleCount('not-applicable'),
      rulesFailed: ruleCount('failed'),
      expectedFailures: rules.filter((r) => r.status === 'xfail').length,
      unexpectedPasses: xpass,
      scenarios: scenarios.length,
      scenariosPassed: scenarioCount('passed'),
      scenariosPartlyChecked: scenarioCount('partly-checked'),
      scenariosNotChecked: scenarioCount('not-checked'),
      scenariosNotApplicable: scenarioCount('not-applicable'),
      scenariosFailed: scenarioCount('failed'),
      untaggedScenarios: untagged.length,
      catalogueRules: catalogue.length,
      testableRules: testable.length,
      rulesWithoutCheck: withoutCheck.length,
      rulesNotBlackBox: notBlackBox.length,
      problems: unexpected + xpass + untagged.filter((s) => s.status === 'failed').length + [...expected.keys()].filter((k) => !known.has(k)).length,
    },
    checks: checkFailures(scenarios),
    notChecked: notCheckedTally(scenarios),
    choicesNotDeclared: choicesTally(scenarios),
    expectedFailuresUnknown: [...expected.keys()].filter((k) => !known.has(k)),
    withoutCheck,
    notBlackBox: notBlackBox.map((r) => ({ rule: r.id, checkedBy: r.checkedBy ?? [] })),
  };
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const where = (s: ScenarioResult) => `${s.uri}${s.line ? `:${s.line}` : ''}${s.era ? ` [${s.era}]` : ''}`;
/** A scenario's place, `features/x.feature:12` (a property's: its test file). */
export const scenarioLocation = where;
const STATUS_TEXT: Record<string, string> = { xpass: 'XPASS (remove it from expected-failures.yaml)' };
const SCENARIO_WORDS: [ScenarioStatus, string][] = [['passed', 'passed'], ['partly-checked', 'partly checked'], ['not-checked', 'not checked'], ['not-applicable', 'not applicable'], ['failed', 'failed']];

/** What a scenario that is not `passed` left unchecked, in one line: the step it stopped at and why, or what it skipped. */
export function notCheckedText(s: ScenarioResult): string {
  const at = (n: NotCheckedAt) => `"${n.step}"${n.line ? ` (line ${n.line})` : ''}`;
  const decision = s.stoppedAt && NOT_ADOPTED.exec(s.stoppedAt.reason)?.[1];
  const parts: string[] = [];
  if (s.stoppedAt) parts.push(`stopped at ${at(s.stoppedAt)}: ${decision ? `decision not adopted: ${decision}` : s.stoppedAt.reason}`);
  else if (s.status === 'partly-checked') parts.push('ran to the end');
  // Skipped checks grouped by reason, each with the lines of the steps that skipped it (the steps are in rules.json).
  const byReason = new Map<string, number[]>();
  for (const n of s.skippedChecks ?? []) byReason.set(n.reason, [...(byReason.get(n.reason) ?? []), ...(n.line ? [n.line] : [])]);
  if (byReason.size) parts.push(`skipped: ${[...byReason].map(([reason, lines]) => `${reason}${lines.length ? ` (line${lines.length === 1 ? '' : 's'} ${[...new Set(lines)].join(', ')})` : ''}`).join('; ')}`);
  return parts.join('; ');
}

/** A rule's status in each era its scenarios ran in, when they ran in more than one: " · 2025-11-25 verified, 2026-07-28 failed". */
export function byEra(scenarios: ScenarioResult[]): string {
  const eras = [...new Set(scenarios.map((s) => s.era).filter((e): e is string => Boolean(e)))].sort();
  return eras.length > 1 ? ` · ${eras.map((era) => `${era} ${ruleStatus(scenarios.filter((s) => s.era === era))}`).join(', ')}` : '';
}

/** "3 scenarios: 1 passed, 2 not checked" for a rule's table row. */
export function scenarioCounts(scenarios: ScenarioResult[]): string {
  const counts = SCENARIO_WORDS.map(([status, word]) => [scenarios.filter((s) => s.status === status).length, word] as const).filter(([n]) => n > 0);
  return `${plural(scenarios.length, 'scenario')}: ${counts.map(([n, word]) => `${n} ${word}`).join(', ')}`;
}

/**
 * The verdict in one line, the first thing every report says: failures or none, then what was verified of the
 * source rules the run reached (decisions of ours, and rules whose scenarios stopped at a decision not adopted, are
 * left out), e.g. "no failures: 107 of 218 source rules verified, 95 partly checked, 16 not checked".
 */
export function verdictLine(report: Report): string {
  const sections = ruleSections();
  const source = report.rules.filter((r) => sections.get(r.rule)?.decision === false && r.status !== 'not-applicable');
  const count = (...statuses: string[]) => source.filter((r) => statuses.includes(r.status)).length;
  const failed = count('failed', 'xpass');
  const lead = report.summary.problems === 0 ? `no failures${count('xfail') ? ` (${count('xfail')} expected)` : ''}` : `${plural(report.summary.problems, 'problem')}${failed ? ` (${failed} source rules failed)` : ''}`;
  return `${lead}: ${count('verified')} of ${source.length} source rules verified, ${count('partly-checked')} partly checked, ${count('not-checked')} not checked`;
}

/** The headline, the same words in the console and in summary.md. */
export function headline(s: Report['summary']): { rules: string; scenarios: string } {
  return {
    rules:
      `rules: ${s.rulesVerified} verified, ${s.rulesPartlyChecked} partly checked, ${s.rulesNotChecked} not checked, ` +
      `${s.rulesNotApplicable} not applicable (decision not adopted), ${s.rulesFailed} failed (${s.expectedFailures} expected, ${s.unexpectedPasses} unexpectedly passing), of ${s.rulesRun} this run checks`,
    scenarios:
      `scenarios: ${s.scenariosPassed} passed (every step ran, no source check skipped), ${s.scenariosPartlyChecked} partly checked, ${s.scenariosNotChecked} not checked, ` +
      `${s.scenariosNotApplicable} not applicable (decision not adopted), ${s.scenariosFailed} failed, of ${s.scenarios}`,
  };
}

/** The report as written to reports/conformance.json: rules name their scenarios, each scenario appears once. */
export function reportJson(report: Report): unknown {
  return {
    ...report,
    rules: report.rules.map((r) => ({
      ...r,
      scenarios: r.scenarios.map((s) => ({ name: s.name, where: where(s), status: s.status, ...(s.stoppedAt ? { stoppedAt: s.stoppedAt } : {}), ...(s.skippedChecks ? { skippedChecks: s.skippedChecks } : {}) })),
    })),
    scenarios: report.scenarios.map((s) => ({ ...s, where: where(s) })),
  };
}

/** Over this many rules a run's console shows the verdict per source section, not per rule (rules.md has every rule). */
export const RULES_PER_RULE_MAX = 25;
/** The most lines one list of the console (reasons not checked, choices not declared) shows; the rest are in summary.md. */
const LIST_MAX = 6;

/** Each rule's top-level source section ("4" for §4.3) and whether it is a decision of ours, from spec/rules. */
function ruleSections(): Map<string, { section: string; decision: boolean }> {
  return new Map(loadRules().map((r) => [r.id, { section: String(r.section).split('.')[0]!, decision: Boolean(r.decision) }]));
}

/**
 * The verdict per source section: source rules by their section, our decisions in a row of their own, each row
 * counting its rules by status. Markdown rows for summary.md, padded text for the console.
 */
export function sectionTable(report: Report): { head: string[]; rows: string[][] } {
  const sections = ruleSections();
  const columns: [string, Report['rules'][number]['status'][]][] = [['verified', ['verified']], ['partly checked', ['partly-checked']], ['not checked', ['not-checked']], ['not applicable', ['not-applicable']], ['failed', ['failed', 'xfail', 'xpass']]];
  const byRow = new Map<string, Report['rules']>();
  for (const r of report.rules) {
    const info = sections.get(r.rule);
    const row = !info ? 'other' : info.decision ? 'decisions (ours)' : `§${info.section}`;
    byRow.set(row, [...(byRow.get(row) ?? []), r]);
  }
  const order = [...byRow.keys()].sort((a, b) => (a.startsWith('§') && b.startsWith('§') ? Number(a.slice(1)) - Number(b.slice(1)) : a.startsWith('§') ? -1 : b.startsWith('§') ? 1 : a.localeCompare(b)));
  return {
    head: ['rules', ...columns.map(([name]) => name), 'of'],
    rows: order.map((row) => {
      const rules = byRow.get(row)!; // cast: every key of byRow holds its rules
      return [row, ...columns.map(([, statuses]) => String(rules.filter((r) => statuses.includes(r.status)).length)), String(rules.length)];
    }),
  };
}

/**
 * Prints the verdict: per rule for a run of a few rules, else per source section with each failed rule by name;
 * the failed steps' transcripts; what was not checked and the choices not declared (the first few, the rest in
 * summary.md); the eras and the headline last.
 */
export function printReport(report: Report, log: (line: string) => void = console.log): void {
  const s = report.summary;
  const perRule = report.rules.length <= RULES_PER_RULE_MAX;
  if (perRule) {
    const width = Math.max(8, ...report.rules.map((r) => r.rule.length)) + 2;
    log('\nverdict (only what was checked counts as passed):');
    log(`${'rule-id'.padEnd(width)}${'status'.padEnd(15)} scenarios`);
    for (const r of report.rules) {
      log(`${r.rule.padEnd(width)}${(STATUS_TEXT[r.status] ?? r.status).padEnd(15)} ${scenarioCounts(r.scenarios)}${byEra(r.scenarios)}${r.expectedFailureReason ? ` — expected: ${clip(r.expectedFailureReason, 100)}` : ''}`);
    }
  } else {
    const { head, rows } = sectionTable(report);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)) + 2);
    log('\nverdict by source section (only what was checked counts as passed; every rule: rules.md, rules.json):');
    for (const row of [head, ...rows]) log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(''));
    const notVerified = report.rules.filter((r) => r.status === 'failed' || r.status === 'xfail' || r.status === 'xpass');
    for (const r of notVerified) log(`${(STATUS_TEXT[r.status] ?? r.status).toUpperCase()} ${r.rule}: ${clip(r.scenarios.filter((x) => x.status === 'failed').map((x) => x.name).join('; ') || r.expectedFailureReason || '', 140)}`);
  }
  const incomplete = report.scenarios.filter((x) => x.status !== 'passed' && x.status !== 'failed');
  if (incomplete.length && perRule && incomplete.length <= LIST_MAX * 2) {
    log(`\nscenarios not checked in full (${incomplete.length}): status, scenario, where it stopped or what it skipped, and why`);
    for (const x of incomplete) log(`${x.status.padEnd(15)} ${where(x)} ${clip(x.name, 80)} — ${notCheckedText(x)}`);
  } else if (incomplete.length) log(`\n${plural(incomplete.length, 'scenario')} not checked in full: scenarios.md lists each with where it stopped and why`);
  const transcribed = report.scenarios.filter((x) => x.status === 'failed' && x.transcripts?.length);
  if (transcribed.length) {
    log(`\nwhat the kit sent and got in each failed step (${transcribed.length} scenario${transcribed.length === 1 ? '' : 's'}; tokens and secrets redacted, the curl line reads them from the environment):`);
    for (const x of transcribed.slice(0, CONSOLE_TRANSCRIPTS)) {
      log(`\nFAILED ${where(x)} ${x.name}${x.message ? ` — ${clip(x.message.split('\n')[0]!, 200)}` : ''}`);
      log(transcriptText(x).replace(/^/gm, '  '));
    }
    // A target that fails most scenarios would flood the terminal: the rest are in report.html and junit.xml.
    if (transcribed.length > CONSOLE_TRANSCRIPTS) log(`\n… and ${transcribed.length - CONSOLE_TRANSCRIPTS} more failed scenarios: their transcripts are in report.html, junit.xml and conformance.json`);
  }
  const failedChecks = Object.entries(report.checks).filter(([, n]) => n > 0);
  if (failedChecks.length) log(`\ngeneric check failures: ${failedChecks.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  if (report.expectedFailuresUnknown.length) log(`\nexpected-failures.yaml names rules that are not in the catalogue: ${report.expectedFailuresUnknown.join(', ')}`);
  if (s.untaggedScenarios) log(`\n${s.untaggedScenarios} scenario(s) name no @rule tag`);
  const list = (entries: [string, number][]) => {
    for (const [what, n] of entries.slice(0, LIST_MAX)) log(`  ${what} — in ${plural(n, 'scenario')}`);
    if (entries.length > LIST_MAX) log(`  … and ${entries.length - LIST_MAX} more (summary.md)`);
  };
  const skipped = Object.entries(report.notChecked).sort(([, a], [, b]) => b - a);
  if (skipped.length) {
    log(`\nnot checked, not declared or not supported (pass --declaration, or add the fixtures part, to check them): ${skipped.length} reason(s)`);
    list(skipped);
  }
  const choices = Object.entries(report.choicesNotDeclared ?? {}).sort(([, a], [, b]) => b - a);
  if (choices.length) {
    log(`\nyour choices, not declared (the source leaves them open; the verdicts above do not depend on them; declare them with --declaration to check them too): ${choices.length}`);
    list(choices);
  }
  log(
    `\n${s.rulesWithoutCheck} catalogue rules without a check (of ${s.testableRules} testable)` +
      (s.rulesNotBlackBox ? `; ${s.rulesNotBlackBox} reference-only (no black-box check can observe them; rules.json referenceOnly names their tests)` : ''),
  );
  if (report.withoutCheck.length) log(`without a check: ${clip(report.withoutCheck.join(', '), 300)}`);
  for (const line of eraLines(report)) log(line);
  const { rules, scenarios } = headline(s);
  log(rules);
  log(scenarios);
  log(`verdict: ${verdictLine(report)}`);
}

/** How many failed scenarios' transcripts the console shows. */
const CONSOLE_TRANSCRIPTS = 10;

/** A failed scenario's transcripts as one text: each failed step (text and line), then what the kit sent and got in it. */
export function transcriptText(s: ScenarioResult): string {
  return (s.transcripts ?? []).map((t) => `Failed step${t.line ? ` (line ${t.line})` : ''}: ${t.step}\n${t.text}`).join('\n\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A short Markdown summary for a CI job page (e.g. $GITHUB_STEP_SUMMARY): totals, failed rules, what was not checked. */
export function summaryMarkdown(report: Report, target: string): string {
  const s = report.summary;
  const failed = report.rules.filter((r) => r.status === 'failed' || r.status === 'xpass');
  const { rules, scenarios } = headline(s);
  const lines = [
    `## site-mcp conformance: ${verdictLine(report)}`,
    '',
    `Target ${target}:`,
    '',
    `- **${scenarios}**`,
    `- **${rules}**`,
    ...eraLines(report).map((line) => `- ${line}`),
    `- ${s.rulesWithoutCheck} of ${s.testableRules} testable rules have no check yet${s.rulesNotBlackBox ? `, ${s.rulesNotBlackBox} are reference-only (checked by the reference's or the kit's own tests)` : ''}.`,
    '',
    'A scenario passed only when every step ran and nothing in it was skipped; a rule is verified only when one of its scenarios passed and none failed. ' +
      'A run with nothing failed passes even where things were not checked. `report.html` shows the verdict per source section and rule, and each failure with the requests and answers of its failed step; `cucumber.html` is Cucumber\'s own page, whose step statuses are not the verdict.',
  ];
  const { head, rows } = sectionTable(report);
  lines.push('', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`), '', 'Every rule with its scenarios: `rules.md`; every scenario not checked in full, where it stopped and why: `scenarios.md`.');
  if (failed.length) lines.push('', '| failed rule | scenarios |', '|---|---|', ...failed.map((r) => `| \`${r.rule}\` | ${cell(clip(r.scenarios.filter((x) => x.status === 'failed').map((x) => x.name).join('; ') || r.status, 400))} |`));
  // A short list stays here; a long one is scenarios.md alone, so this page fits a CI job summary.
  const incomplete = report.scenarios.filter((x) => x.status !== 'passed' && x.status !== 'failed');
  if (incomplete.length && incomplete.length <= LIST_MAX * 3) lines.push('', scenariosMarkdown(report).replace(/^## /, '').trimEnd());
  const skipped = Object.entries(report.notChecked);
  if (skipped.length) lines.push('', `Not checked, not declared or not supported (${skipped.length}):`, '', ...skipped.map(([what, n]) => `- ${what} (${plural(n, 'scenario')})`));
  const choices = Object.entries(report.choicesNotDeclared ?? {});
  if (choices.length) lines.push('', `Your choices, not declared (the source leaves them open; the verdict does not depend on them) (${choices.length}):`, '', ...choices.map(([what, n]) => `- ${what} (${plural(n, 'scenario')})`));
  return `${lines.join('\n')}\n`;
}

/** Every rule of the run with its status and scenario counts (rules.md: the table summary.md leaves out). */
export function rulesMarkdown(report: Report): string {
  const sections = ruleSections();
  const lines = ['## Every rule of the run', '', '| rule | section | status | scenarios |', '|---|---|---|---|'];
  for (const r of report.rules) {
    const info = sections.get(r.rule);
    lines.push(`| \`${r.rule}\` | ${info ? `§${info.section}${info.decision ? ' (decision)' : ''}` : ''} | ${STATUS_TEXT[r.status] ?? r.status} | ${cell(`${scenarioCounts(r.scenarios)}${byEra(r.scenarios)}`)} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every scenario not checked in full, where it stopped or what it skipped, and why (scenarios.md). */
export function scenariosMarkdown(report: Report): string {
  const incomplete = report.scenarios.filter((x) => x.status !== 'passed' && x.status !== 'failed');
  const lines = [`## Scenarios not checked in full (${incomplete.length})`, '', '| status | scenario | where it stopped or what it skipped, and why |', '|---|---|---|'];
  for (const x of incomplete) lines.push(`| ${x.status} | ${cell(x.name)} (\`${where(x)}\`) | ${cell(notCheckedText(x))} |`);
  return `${lines.join('\n')}\n`;
}

const xml = (text: string) =>
  text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * junit.xml from the report, one testcase per scenario (and property): a failed one has <failure> (and, in
 * <system-out>, what the kit sent and got in the failed step: transcript.ts), one that is not
 * checked in full (partly checked, not checked, not applicable) has <skipped message="…"> with its status, step and
 * reason, and only a scenario that passed has neither (Cucumber's own JUnit formatter would count a cut-short
 * scenario as a pass).
 */
export function junitXml(report: Report): string {
  const s = report.summary;
  const total = report.scenarios.reduce((sum, x) => sum + (x.seconds ?? 0), 0);
  const cases = report.scenarios.map((x) => {
    const head = `  <testcase classname="${xml(x.uri)}" name="${xml(x.era ? `${x.name} [${x.era}]` : x.name)}" time="${(x.seconds ?? 0).toFixed(3)}"${x.line ? ` line="${x.line}"` : ''}`;
    if (x.status === 'passed') return `${head}/>`;
    if (x.status === 'failed') {
      const message = x.message ?? 'failed';
      const out = x.transcripts?.length ? `\n    <system-out>${xml(transcriptText(x))}</system-out>` : '';
      return `${head}>\n    <failure message="${xml(message.split('\n')[0]!)}" type="failed">${xml(message)}</failure>${out}\n  </testcase>`;
    }
    return `${head}>\n    <skipped message="${xml(`${x.status.replace('-', ' ')}: ${notCheckedText(x)}`)}"/>\n  </testcase>`;
  });
  const skipped = s.scenariosPartlyChecked + s.scenariosNotChecked + s.scenariosNotApplicable;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="site-mcp conformance" tests="${s.scenarios}" failures="${s.scenariosFailed}" skipped="${skipped}" errors="0" time="${total.toFixed(3)}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}

/**
 * The run's exit code from its report, as the CLI gives it (prove-worker.ts gives the same): 0 when nothing is a
 * problem, 1 otherwise; each reason that is not a rule's own status is logged. Not checked is never a problem.
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
