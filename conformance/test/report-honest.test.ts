// "Report only what was checked" (conformance/lib/report.ts; conformance/docs/report.md, "Report: only what was checked"):
// a scenario that stopped before its end is never counted as passed — not in the console table, summary.md,
// rules.json or JUnit — and a rule whose every scenario stopped is not verified. The scenarios here are Cucumber
// message streams written by hand, in the two shapes a stop takes: the step that needs an undeclared value
// reports itself skipped and Cucumber skips the rest (features/support/declared.ts today), or the later steps
// still report PASSED after the note (as they did before), which must not make the scenario pass either.
import { describe, expect, it } from 'vitest';
import { buildReport, junitXml, printReport, reportJson, runExitCode, scenarioResults, summaryMarkdown, type ScenarioResult } from '../lib/report.js';
import { CHOICE_NOT_DECLARED_MEDIA_TYPE, NOT_CHECKED_MEDIA_TYPE } from '../lib/declaration.js';
import { TRANSCRIPT_MEDIA_TYPE } from '../lib/transcript.js';
import { reportHtml } from '../lib/report-html.js';
import { ruleIds } from '../../spec/index.js';

type Kind = 'Context' | 'Action' | 'Outcome';
interface StepSpec { kind: Kind; text: string; status: 'PASSED' | 'SKIPPED' | 'FAILED'; note?: string; choice?: string; message?: string; transcript?: string }

/** A message stream for scenarios, each tagged with its rules and made of steps with their results and notes. */
function messages(scenarios: { name: string; rules: string[]; steps: StepSpec[] }[]): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  scenarios.forEach((scenario, n) => {
    const id = (what: string, i = 0) => `${what}-${n}-${i}`;
    const keyword = { Context: 'Given ', Action: 'When ', Outcome: 'Then ' };
    out.push({
      gherkinDocument: {
        uri: `features/s${n}.feature`,
        feature: { name: `F${n}`, children: [{ scenario: { id: id('sc'), name: scenario.name, steps: scenario.steps.map((s, i) => ({ id: id('ast', i), keyword: keyword[s.kind], text: s.text, location: { line: 10 + i } })) } }] },
      },
    });
    out.push({
      pickle: {
        id: id('p'),
        uri: `features/s${n}.feature`,
        name: scenario.name,
        location: { line: 9 },
        tags: scenario.rules.map((r) => ({ name: `@rule:${r}` })),
        steps: scenario.steps.map((s, i) => ({ id: id('ps', i), text: s.text, type: s.kind, astNodeIds: [id('ast', i)] })),
      },
    });
    out.push({ testCase: { id: id('tc'), pickleId: id('p'), testSteps: [{ id: id('hook'), hookId: 'h' }, ...scenario.steps.map((_, i) => ({ id: id('ts', i), pickleStepId: id('ps', i) }))] } });
    out.push({ testCaseStarted: { id: id('tcs'), testCaseId: id('tc') } });
    out.push({ testStepFinished: { testCaseStartedId: id('tcs'), testStepId: id('hook'), testStepResult: { status: 'PASSED', duration: { seconds: 0, nanos: 1000 } } } });
    scenario.steps.forEach((s, i) => {
      if (s.note) out.push({ attachment: { body: s.note, mediaType: NOT_CHECKED_MEDIA_TYPE, testCaseStartedId: id('tcs'), testStepId: id('ts', i) } });
      if (s.choice) out.push({ attachment: { body: s.choice, mediaType: CHOICE_NOT_DECLARED_MEDIA_TYPE, testCaseStartedId: id('tcs'), testStepId: id('ts', i) } });
      if (s.transcript) out.push({ attachment: { body: s.transcript, mediaType: TRANSCRIPT_MEDIA_TYPE, testCaseStartedId: id('tcs'), testStepId: id('ts', i) } });
      out.push({ testStepFinished: { testCaseStartedId: id('tcs'), testStepId: id('ts', i), testStepResult: { status: s.status, duration: { seconds: 0, nanos: 2_000_000 }, ...(s.message ? { message: s.message } : {}) } } });
    });
  });
  return out;
}

const CUT = 'the plan id in a prepare_* answer (outputSchemas or outputFields): the rest of the scenario';
const arrange: StepSpec = { kind: 'Context', text: 'a workspace with an owner "olive" and a site "main"', status: 'PASSED' };
const call: StepSpec = { kind: 'Action', text: '"agent" calls "prepare_publish_site"', status: 'PASSED' };
const check: StepSpec = { kind: 'Outcome', text: 'the call succeeds', status: 'PASSED' };

/** Cut short at its second step: the step reports itself skipped, and Cucumber skips the rest. */
const cutShort = { name: 'cut short', rules: ['only-cut-short', 'mixed'], steps: [arrange, { ...call, status: 'SKIPPED' as const, note: CUT }, { ...check, status: 'SKIPPED' as const }] };
/** The same stop as the kit wrote it before: the note, then every later step still PASSED. */
const cutShortOldShape = { name: 'cut short, later steps passed', rules: ['only-cut-short'], steps: [arrange, { ...call, note: CUT }, check] };
const partly = { name: 'partly', rules: ['only-partly'], steps: [arrange, call, check, { kind: 'Action' as const, text: '"olive" approves the plan', status: 'SKIPPED' as const, note: CUT }, { ...check, status: 'SKIPPED' as const }] };
const skippedInside = { name: 'skipped inside', rules: ['only-partly'], steps: [arrange, call, { ...check, text: 'the call fails with "scope_denied"', note: 'the error code for scope_denied (errorCodes.scope_denied)' }] };
const notAdopted = { name: 'decision', rules: ['only-decision'], steps: [{ kind: 'Context' as const, text: 'the target adopts the decision "limit-values"', status: 'SKIPPED' as const, note: 'limit-values (adopts): the rest of the scenario' }, { ...call, status: 'SKIPPED' as const }] };
const full = { name: 'checked in full', rules: ['mixed', 'verified-rule'], steps: [arrange, call, check] };
const failed = { name: 'failed', rules: ['failed-rule'], steps: [arrange, call, { ...check, status: 'FAILED' as const, message: 'expected ok' }] };

const byName = (results: ScenarioResult[]) => Object.fromEntries(results.map((s) => [s.name, s]));
const report = (streams: Parameters<typeof messages>[0], expected = new Map<string, string>()) => buildReport(scenarioResults(messages(streams)), expected);

describe('rule:kit-judges-by-source — an undeclared choice never makes a source verdict partial', () => {
  // The refusal itself is the source's check (it ran and passed); which code it carries is the target's choice.
  const choiceOnly = { name: 'refused, code not declared', rules: ['source-rule'], steps: [arrange, call, { ...check, text: 'the call fails with "scope_denied"', choice: 'the error code for scope_denied (errorCodes.scope_denied)' }] };
  const sourceSkipped = { name: 'a source check skipped', rules: ['other-rule'], steps: [arrange, call, { ...check, note: 'output field get_page/sections (outputSchemas or outputFields)', choice: 'error details issues (errorObject)' }] };

  it('a scenario whose only gap is an undeclared choice passes, and the choice is listed apart with its count', () => {
    const r = report([choiceOnly, sourceSkipped]);
    const s = byName(r.scenarios);
    expect(s['refused, code not declared']).toMatchObject({ status: 'passed', choicesNotDeclared: ['the error code for scope_denied (errorCodes.scope_denied)'] });
    expect(r.rules.find((x) => x.rule === 'source-rule')?.status).toBe('verified');
    // A skipped source check still makes it partly checked, whatever choices it also lists.
    expect(s['a source check skipped']!.status).toBe('partly-checked');
    expect(r.rules.find((x) => x.rule === 'other-rule')?.status).toBe('partly-checked');
    expect(r.choicesNotDeclared).toEqual({ 'error details issues (errorObject)': 1, 'the error code for scope_denied (errorCodes.scope_denied)': 1 });
    expect(r.notChecked).toEqual({ 'output field get_page/sections (outputSchemas or outputFields)': 1 });
    const lines: string[] = [];
    printReport(r, (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/your choices, not declared[^\n]*: 2\n {2}error details issues \(errorObject\) — in 1 scenario\n/);
    expect(summaryMarkdown(r, 'http://t')).toMatch(/Your choices, not declared/);
    expect(reportHtml(r, { target: 'http://t', seed: 1, finishedAt: 'now', tags: '', replays: new Map() })).toMatch(/Your choices, not declared \(2\)/);
  });
});

describe('a scenario that stopped early is never passed', () => {
  it('each stop gets its status, the step it stopped at and the reason', () => {
    const s = byName(scenarioResults(messages([cutShort, cutShortOldShape, partly, skippedInside, notAdopted, full, failed])));
    expect(s['cut short']).toMatchObject({ status: 'not-checked', stoppedAt: { step: 'When "agent" calls "prepare_publish_site"', line: 11, reason: 'the plan id in a prepare_* answer (outputSchemas or outputFields)' } });
    expect(s['cut short, later steps passed']).toMatchObject({ status: 'not-checked', stoppedAt: { line: 11 } });
    expect(s['partly']).toMatchObject({ status: 'partly-checked', stoppedAt: { step: 'When "olive" approves the plan', line: 13 } });
    expect(s['skipped inside']).toMatchObject({ status: 'partly-checked', skippedChecks: [{ step: 'Then the call fails with "scope_denied"', line: 12, reason: 'the error code for scope_denied (errorCodes.scope_denied)' }] });
    expect(s['skipped inside']!.stoppedAt).toBeUndefined();
    expect(s['decision']).toMatchObject({ status: 'not-applicable', stoppedAt: { reason: 'limit-values (adopts)' } });
    expect(s['checked in full']!.status).toBe('passed');
    expect(s['failed']).toMatchObject({ status: 'failed', message: 'expected ok' });
  });

  it('a rule whose every scenario stopped is not verified; one with a scenario checked in full and none failed is', () => {
    const r = report([cutShort, cutShortOldShape, partly, skippedInside, notAdopted, full, failed]);
    const status = Object.fromEntries(r.rules.map((x) => [x.rule, x.status]));
    expect(status).toEqual({ 'only-cut-short': 'not-checked', 'only-partly': 'partly-checked', 'only-decision': 'not-applicable', mixed: 'verified', 'verified-rule': 'verified', 'failed-rule': 'failed' });
    expect(r.summary).toMatchObject({
      rulesRun: 6, rulesVerified: 2, rulesPartlyChecked: 1, rulesNotChecked: 1, rulesNotApplicable: 1, rulesFailed: 1,
      scenarios: 7, scenariosPassed: 1, scenariosPartlyChecked: 2, scenariosNotChecked: 2, scenariosNotApplicable: 1, scenariosFailed: 1,
    });
  });

  it('the console table and headline count none of them as passed, and name the step and the reason', () => {
    const lines: string[] = [];
    printReport(report([cutShort, cutShortOldShape, notAdopted]), (l) => lines.push(...l.split('\n')));
    const text = lines.join('\n');
    expect(text).toMatch(/^only-cut-short\s+not-checked\s+2 scenarios: 2 not checked$/m);
    expect(text).toMatch(/^only-decision\s+not-applicable\s+1 scenario: 1 not applicable$/m);
    expect(text).not.toMatch(/^\S+\s+(passed|verified)\b/m);
    expect(text).toMatch(/^rules: 0 verified, 0 partly checked, 2 not checked, 1 not applicable \(decision not adopted\), 0 failed/m);
    expect(text).toMatch(/^scenarios: 0 passed .*, 0 partly checked, 2 not checked, 1 not applicable \(decision not adopted\), 0 failed, of 3$/m);
    expect(text).toContain('not-checked     features/s0.feature:9 cut short — stopped at "When "agent" calls "prepare_publish_site"" (line 11): the plan id in a prepare_* answer (outputSchemas or outputFields)');
    expect(text).toContain('stopped at "Given the target adopts the decision "limit-values"" (line 10): decision not adopted: limit-values');
  });

  it('summary.md, rules.json and conformance.json say the same', () => {
    const r = report([cutShort, full]);
    const md = summaryMarkdown(r, 'http://127.0.0.1:1');
    expect(md).toMatch(/\*\*scenarios: 1 passed .*, 1 not checked, 0 not applicable \(decision not adopted\), 0 failed, of 2\*\*/);
    expect(md).toMatch(/\| not-checked \| cut short \(`features\/s0.feature:9`\) \| stopped at "When "agent" calls "prepare_publish_site"" \(line 11\): the plan id/);
    expect(md).toMatch(/`cucumber\.html` is Cucumber's own page, whose step statuses are not the verdict/);
    const json = reportJson(r) as { rules: { rule: string; status: string; scenarios: { name: string; status: string; stoppedAt?: { step: string; reason: string } }[] }[] };
    const mixed = json.rules.find((x) => x.rule === 'mixed')!;
    expect(mixed.status).toBe('verified');
    expect(mixed.scenarios.find((x) => x.name === 'cut short')).toMatchObject({ status: 'not-checked', stoppedAt: { step: 'When "agent" calls "prepare_publish_site"' } });
    expect(json.rules.find((x) => x.rule === 'only-cut-short')!.status).toBe('not-checked');
  });

  it('JUnit has <skipped message=…> for each scenario not checked in full, never a bare pass', () => {
    const xml = junitXml(report([cutShort, partly, notAdopted, full, failed]));
    expect(xml).toMatch(/<testsuite name="site-mcp conformance" tests="5" failures="1" skipped="3" errors="0"/);
    const testcase = (name: string) => new RegExp(`<testcase [^>]*name="${name}"[^>]*?(/>|>[\\s\\S]*?</testcase>)`).exec(xml)?.[0] ?? '';
    expect(testcase('cut short')).toMatch(/<skipped message="not checked: stopped at &quot;When &quot;agent&quot; calls &quot;prepare_publish_site&quot;&quot; \(line 11\): the plan id/);
    expect(testcase('partly')).toMatch(/<skipped message="partly checked: stopped at/);
    expect(testcase('decision')).toMatch(/<skipped message="not applicable: stopped at .*decision not adopted: limit-values"/);
    expect(testcase('checked in full')).toMatch(/\/>$/);
    expect(testcase('failed')).toMatch(/<failure message="expected ok"/);
  });

  it('a failed step\'s transcript reaches the scenario, the console and JUnit\'s <system-out>', () => {
    const sent = 'Sent and got in this step (1 of 1 request):\n\n1. tools/call publish_site {}\n> POST http://127.0.0.1:1/api/mcp\n< HTTP 500 Internal Server Error';
    const r = report([{ ...failed, steps: [arrange, call, { ...check, status: 'FAILED' as const, message: 'expected ok', transcript: sent }] }]);
    expect(r.scenarios[0]!.transcripts).toEqual([{ step: 'Then the call succeeds', line: 12, text: sent }]);
    expect(junitXml(r)).toMatch(/<failure message="expected ok" type="failed">expected ok<\/failure>\n    <system-out>Failed step \(line 12\): Then the call succeeds\nSent and got in this step[\s\S]*&lt; HTTP 500 Internal Server Error<\/system-out>/);
    const lines: string[] = [];
    printReport(r, (line) => lines.push(line));
    expect(lines.join('\n')).toMatch(/FAILED features\/s0\.feature:9 failed — expected ok\n  Failed step \(line 12\): Then the call succeeds\n  Sent and got/);
    expect(junitXml(report([failed]))).not.toMatch(/<system-out>/);
    // A target that fails most scenarios does not flood the terminal: ten transcripts, then where the rest are.
    const many = Array.from({ length: 12 }, (_, n) => ({ ...failed, name: `failed ${n}`, steps: [arrange, call, { ...check, status: 'FAILED' as const, message: 'expected ok', transcript: sent }] }));
    const flood: string[] = [];
    printReport(report(many), (line) => flood.push(line));
    expect(flood.filter((line) => line.startsWith('\nFAILED '))).toHaveLength(10);
    expect(flood.join('\n')).toMatch(/… and 2 more failed scenarios: their transcripts are in report\.html, junit\.xml and conformance\.json/);
  });

  it('report.html: every catalogue rule under its section, source and decisions apart, markup from a target escaped', () => {
    const hostile = { ...failed, rules: ['scope-ceiling'], steps: [arrange, call, { ...check, status: 'FAILED' as const, message: 'got <script>alert(1)</script>', transcript: '< <img src=x onerror=alert(1)>' }] };
    const html = reportHtml(report([hostile, { ...cutShort, rules: ['plan-single-use'] }], new Map([['scope-ceiling', 'known']])), { target: 'http://127.0.0.1:1', seed: 7, finishedAt: '2026-01-02T03:04:05.678Z' });
    expect(html).not.toMatch(/<script|<img /);
    expect(html).toContain('got &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toMatch(/<article class="failure expected"[\s\S]*expected failure<\/span> scope-ceiling: known/);
    expect(html).toMatch(/<tr class="r-xfail" id="rule-scope-ceiling">/);
    expect(html).toMatch(/<tr class="r-not-checked" id="rule-plan-single-use">[\s\S]*?not checked: cut short — stopped at/);
    expect(html).toMatch(/<h2>Source rules<\/h2>[\s\S]*id="rule-scope-ceiling"[\s\S]*<h2>Declared decisions<\/h2>/);
    expect(html).toContain('finished 2026-01-02 03:04:05 UTC');
  });

  it('what was not checked fails no run; a failure does, and an expected failure that was only not checked is no XPASS', () => {
    const quiet = () => undefined;
    expect(runExitCode(report([cutShort, notAdopted]), true, quiet)).toBe(0);
    expect(runExitCode(report([cutShort, failed]), true, quiet)).toBe(1);
    // Expected failures name catalogue rules (an unknown one is a problem of its own).
    const listed = report([{ ...cutShort, rules: ['plan-single-use'] }], new Map([['plan-single-use', 'known']]));
    expect(listed.rules[0]).toMatchObject({ rule: 'plan-single-use', status: 'not-checked', expectedFailureReason: 'known' });
    expect(listed.summary.unexpectedPasses).toBe(0);
    expect(runExitCode(listed, true, quiet)).toBe(0);
    const verified = report([{ ...full, rules: ['plan-single-use'] }], new Map([['plan-single-use', 'known']]));
    expect(verified.rules[0]!.status).toBe('xpass');
    expect(runExitCode(verified, true, quiet)).toBe(1);
  });
});

describe('report.html for a person', () => {
  // The same scenario, run in both protocol eras, partly checked for the same reason in each; another rule verified.
  const partly = (era: string): ScenarioResult => ({ name: 'read the overview', uri: 'features/site-read.feature', line: 9, tags: ['@rule:scope-ceiling'], status: 'partly-checked', source: 'cucumber', era, skippedChecks: [{ step: 'Then the data at "/x" equals "y"', line: 12, reason: 'output field x (outputSchemas or outputFields)' }], notChecked: ['output field x (outputSchemas or outputFields)'] });
  const passed = (era: string): ScenarioResult => ({ name: 'pages', uri: 'features/site-read.feature', line: 20, tags: ['@rule:ids-from-list-tools'], status: 'passed', source: 'cucumber', era });
  // Every rule named by some scenario of the suite, as in a real run: only the run's own rules have a status.
  const html = reportHtml(buildReport([partly('2025-11-25'), partly('2026-07-28'), passed('2025-11-25'), passed('2026-07-28')], new Map(), ruleIds()), { target: 'http://t', seed: 1, finishedAt: 'now', tags: '', replays: new Map() });

  it('says a reason once, whatever the eras it came in', () => {
    expect(html.match(/partly checked: read the overview — ran to the end; skipped: output field x/g)).toHaveLength(1);
  });

  it('folds a section with nothing to look at and opens one with a rule partly checked', () => {
    const sectionOf = (rule: string) => /<section id="source-([^"]+)">(?:(?!<section id="source-)[\s\S])*?id="rule-RULE"/.source.replace('RULE', rule);
    const open = new RegExp(sectionOf('scope-ceiling')).exec(html)?.[0] ?? '';
    expect(open).toMatch(/<details open>/);
    const folded = [...html.matchAll(/<section id="source-[^"]+">[\s\S]*?<\/details>/g)].map((m) => m[0]).filter((text) => !text.includes('id="rule-scope-ceiling"'));
    expect(folded.length).toBeGreaterThan(0);
    for (const text of folded) expect(text).not.toMatch(/<details open>/);
  });
});

