// The kit's own HTML report, report.html: the verdict of one run as a person reads it, from the report
// report.ts computes (the data of conformance.json) and the rule catalogue. Every rule of spec/rules appears once,
// under its source section, with its status — verified, partly checked, not checked (with the reason), not
// applicable, failed, expected failure, and for a rule this run did not check: no check, reference-only,
// untestable, not run — source rules and declared decisions (`decision: true`) apart, and each failed scenario
// with its message, what the kit sent and got in the failed step (transcript.ts) and its replay line. One
// self-contained file: the CSS inline, no script, nothing fetched. Cucumber's own page is cucumber.html beside it,
// linked as the detail page (its step statuses, every step's attachments). The markup is the Eta template
// views/report.eta, which escapes every value it prints.
import { Eta } from 'eta';
import { fileURLToPath } from 'node:url';
import { loadRuleFiles, type Rule } from '../../spec/index.js';
import { byEra, eraLines, headline, notCheckedText, scenarioCounts, scenarioLocation, verdictLine, type Report, type ScenarioResult } from './report.js';

const eta = new Eta({ views: fileURLToPath(new URL('./views/', import.meta.url)), autoEscape: true, autoTrim: [false, 'nl'], defaultExtension: '.eta' });

export interface HtmlReportMeta {
  target: string;
  seed: number;
  finishedAt: string;
  tags?: string;
  declaration?: string;
  /** The replay command of each failed scenario, by its location (scenarioLocation). */
  replays?: Map<string, string>;
  /** Cucumber's own page beside this one, when written. */
  cucumberPage?: string;
}

/** Every status a rule can show here: report.ts's, and why a rule this run did not check was not checked. */
export const RULE_STATUS_TEXT: Record<string, string> = {
  verified: 'verified',
  'partly-checked': 'partly checked',
  'not-checked': 'not checked',
  'not-applicable': 'not applicable',
  failed: 'failed',
  xfail: 'expected failure',
  xpass: 'passes, but listed as expected to fail',
  'no-check': 'no check yet',
  'reference-only': 'reference-only',
  untestable: 'untestable',
  'not-run': 'not in this run',
};
const ORDER = Object.keys(RULE_STATUS_TEXT);

interface RuleRow {
  id: string;
  section: string;
  keyword: string;
  text: string;
  status: string;
  statusText: string;
  scenarios: string;
  /** Why it is not verified: a line per scenario that did not pass, or the catalogue's reason. */
  reasons: { text: string; failure?: string }[];
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
/** A failure message without its stack: where in the kit's steps it was thrown helps nobody reading about their server. */
/**
 * A failure's message for a person: without the stack, and without the value diff node:assert appends to a message
 * of the kit's own (`true !== false`, `+ expected - actual`, `-true +false`), which says less than the sentence above it.
 */
const withoutStack = (message: string) => {
  const diff = message.search(/\n\n(\S+ !== \S+|\s*\+ expected - actual)/);
  return (diff === -1 ? message : message.slice(0, diff)).split('\n').filter((line) => !/^\s+at /.test(line)).join('\n').trimEnd();
};

const anchor = (s: ScenarioResult) => `failure-${scenarioLocation(s).replace(/[^A-Za-z0-9]+/g, '-')}-${s.name.length}`;

function row(rule: Rule, report: Report): RuleRow {
  const run = report.rules.find((r) => r.rule === rule.id);
  const base = { id: rule.id, section: rule.section, keyword: rule.keyword, text: rule.text };
  if (!run) {
    const status = rule.untestable ? 'untestable' : rule.blackBox === false ? 'reference-only' : report.withoutCheck.includes(rule.id) ? 'no-check' : 'not-run';
    const reason = rule.untestable
      ? rule.untestable
      : rule.blackBox === false
        ? `checked by ${(rule.checkedBy ?? []).join(', ')}${rule.whyNotBlackBox ? `: ${rule.whyNotBlackBox}` : ''}`
        : status === 'no-check'
          ? 'no scenario or property names this rule yet'
          : undefined; // not selected in this run: said once, above the tables
    return { ...base, status, statusText: RULE_STATUS_TEXT[status]!, scenarios: '', reasons: reason ? [{ text: reason }] : [] };
  }
  const reasons: RuleRow['reasons'] = [];
  if (run.expectedFailureReason) reasons.push({ text: `expected to fail: ${run.expectedFailureReason}` });
  // One line per reason, whatever the protocol era it came in: the same scenario stopped for the same reason in
  // each era is one line, naming the eras only when not every era of the rule's scenarios had it.
  const eras = new Set(run.scenarios.map((s) => s.era).filter(Boolean));
  const merged = new Map<string, { failure?: string; eras: Set<string | undefined> }>();
  for (const s of run.scenarios) {
    if (s.status === 'passed') continue;
    const text = s.status === 'failed' ? `failed: ${s.name} — ${clip((s.message ?? 'failed').split('\n')[0]!, 160)}` : `${RULE_STATUS_TEXT[s.status]}: ${s.name} — ${notCheckedText(s)}`;
    const seen = merged.get(text) ?? { ...(s.status === 'failed' ? { failure: anchor(s) } : {}), eras: new Set() };
    seen.eras.add(s.era);
    merged.set(text, seen);
  }
  for (const [text, { failure, eras: in_ }] of merged) {
    const where = eras.size > 1 && in_.size < eras.size ? ` (${[...in_].filter(Boolean).join(', ')})` : '';
    reasons.push({ text: `${text}${where}`, ...(failure ? { failure } : {}) });
  }
  return { ...base, status: run.status, statusText: RULE_STATUS_TEXT[run.status] ?? run.status, scenarios: `${scenarioCounts(run.scenarios)}${byEra(run.scenarios)}`, reasons };
}

/** The statuses a reader must look at: their section is shown open. */
const OPEN_STATUSES = new Set(['failed', 'xfail', 'xpass', 'partly-checked', 'not-checked', 'no-check']);

function countsOf(rows: RuleRow[]): { status: string; text: string; n: number }[] {
  return ORDER.map((status) => ({ status, text: RULE_STATUS_TEXT[status]!, n: rows.filter((r) => r.status === status).length })).filter((c) => c.n > 0);
}

/** report.html: the run's verdict per source section and rule, and each failure with its transcript. */
export function reportHtml(report: Report, meta: HtmlReportMeta): string {
  const files = loadRuleFiles().map((f) => f.content as { section: string; title: string; rules: Omit<Rule, 'file'>[] });
  const part = (decision: boolean) =>
    files
      .map((f) => {
        const rows = (f.rules ?? []).filter((r) => Boolean(r.decision) === decision).map((r) => row(r as Rule, report));
        // A section whose rules all passed, were not applicable or not run is folded: what needs reading is open.
        const open = rows.some((r) => OPEN_STATUSES.has(r.status));
        return { id: `${decision ? 'decisions' : 'source'}-${f.section}`, section: f.section, title: f.title, rows, counts: countsOf(rows), open };
      })
      .filter((s) => s.rows.length > 0);
  const source = part(false);
  const decisions = part(true);
  const failures = report.scenarios
    .filter((s) => s.status === 'failed')
    .map((s) => ({
      anchor: anchor(s),
      name: s.name,
      where: scenarioLocation(s),
      rules: s.tags.filter((t) => t.startsWith('@rule:')).map((t) => t.slice(6)),
      // A failure of a rule listed in --expected-failures (xfail) is shown, and said to be expected.
      expected: report.rules.filter((r) => r.status === 'xfail' && s.tags.includes(`@rule:${r.rule}`)).map((r) => `${r.rule}: ${r.expectedFailureReason}`),
      message: withoutStack(s.message ?? 'failed'),
      transcripts: s.transcripts ?? [],
      replay: meta.replays?.get(scenarioLocation(s)),
    }));
  const { rules, scenarios } = headline(report.summary);
  return eta.render('./report', {
    meta: { ...meta, finishedAt: meta.finishedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') },
    notRun: countsOf([...source, ...decisions].flatMap((s) => s.rows)).find((c) => c.status === 'not-run')?.n ?? 0,
    passed: report.summary.problems === 0,
    verdict: verdictLine(report),
    headline: { rules, scenarios },
    eras: eraLines(report),
    summary: report.summary,
    ruleCounts: countsOf([...source, ...decisions].flatMap((s) => s.rows)),
    sourceCounts: countsOf(source.flatMap((s) => s.rows)),
    decisionCounts: countsOf(decisions.flatMap((s) => s.rows)),
    source,
    decisions,
    failures,
    checks: Object.entries(report.checks).filter(([, n]) => n > 0),
    notChecked: Object.entries(report.notChecked),
    choices: Object.entries(report.choicesNotDeclared ?? {}),
  });
}
