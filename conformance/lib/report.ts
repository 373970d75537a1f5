// Per-rule report from Cucumber's message stream: every @rule:<id> tag of a scenario takes that scenario's
// result; a rule passes when all its scenarios pass. Expected failures (expected-failures.yaml) invert: a
// listed rule that now passes is an error, so the list cannot go stale.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { loadRules } from '../../spec/index.js';

type Status = 'passed' | 'failed';
export interface RuleResult { rule: string; status: Status; scenarios: string[] }

const WORST = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

export function scenarioResults(ndjson: string): { name: string; uri: string; tags: string[]; status: Status }[] {
  const pickles = new Map<string, { name: string; uri: string; tags: string[] }>();
  const testCases = new Map<string, string>();
  const started = new Map<string, string>();
  const worst = new Map<string, number>();
  for (const line of ndjson.split('\n')) {
    if (!line) continue;
    const m = JSON.parse(line);
    if (m.pickle) pickles.set(m.pickle.id, { name: m.pickle.name, uri: m.pickle.uri, tags: m.pickle.tags.map((t: { name: string }) => t.name) });
    else if (m.testCase) testCases.set(m.testCase.id, m.testCase.pickleId);
    else if (m.testCaseStarted) started.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
    else if (m.testStepFinished) {
      const pickleId = testCases.get(started.get(m.testStepFinished.testCaseStartedId)!)!;
      const rank = WORST.indexOf(m.testStepFinished.testStepResult.status);
      worst.set(pickleId, Math.max(worst.get(pickleId) ?? 0, rank));
    }
  }
  return [...worst.entries()].map(([id, rank]) => ({ ...pickles.get(id)!, status: rank <= 1 ? 'passed' : 'failed' }));
}

export function ruleResults(scenarios: { name: string; tags: string[]; status: Status }[]): Map<string, RuleResult> {
  const rules = new Map<string, RuleResult>();
  for (const s of scenarios) {
    for (const tag of s.tags) {
      if (!tag.startsWith('@rule:')) continue;
      const rule = tag.slice('@rule:'.length);
      const r = rules.get(rule) ?? { rule, status: 'passed' as Status, scenarios: [] };
      r.scenarios.push(s.name);
      if (s.status === 'failed') r.status = 'failed';
      rules.set(rule, r);
    }
  }
  return rules;
}

export function loadExpectedFailures(path: string): Map<string, string> {
  const doc = parseYaml(readFileSync(path, 'utf8')) as { expected?: { rule: string; reason: string }[] } | null;
  return new Map((doc?.expected ?? []).map((e) => [e.rule, e.reason]));
}

/** Prints the table and returns the number of problems (unexpected failures + expected failures that passed). */
export function printReport(results: Map<string, RuleResult>, expected: Map<string, string>, extraChecked: Set<string> = new Set()): number {
  const catalogue = loadRules();
  let problems = 0;
  const lines: string[] = [];
  for (const r of [...results.values()].sort((a, b) => a.rule.localeCompare(b.rule))) {
    let status: string = r.status;
    if (expected.has(r.rule)) {
      status = r.status === 'failed' ? 'xfail' : 'XPASS (remove from expected-failures.yaml)';
      if (r.status === 'passed') problems++;
    } else if (r.status === 'failed') problems++;
    lines.push(`${r.rule.padEnd(44)} ${status.padEnd(8)} ${r.scenarios.length} scenario${r.scenarios.length === 1 ? '' : 's'}`);
  }
  console.log(`\nper-rule report\n${lines.join('\n')}`);
  const checked = new Set([...results.keys(), ...extraChecked]);
  const testable = catalogue.filter((r) => !r.untestable);
  const unchecked = testable.filter((r) => !checked.has(r.id)).length;
  const failed = [...results.values()].filter((r) => r.status === 'failed').length;
  console.log(`\n${results.size} rules checked by scenarios, ${results.size - failed} passed, ${failed} failed (${[...results.keys()].filter((k) => expected.has(k)).length} expected); ${checked.size} of ${testable.length} testable catalogue rules checked (scenarios or properties), ${unchecked} not yet`);
  return problems;
}
