// What a conformance run is judged by and what it can select, read while the command line is checked
// (conformance/cli.ts) and before Cucumber, the checks or a server are loaded, so that a wrong file or rule id is
// refused in a fraction of a second: the expected-failures file and the rules the suite's sources name.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ruleIds, SPEC_BASE, sharedAjv } from '../../spec/index.js';
import type { ExpectedFailures } from '../../generated/schemas/expected-failures.js';

/** `rule:<id>` in a property test's name (the report gives the test's result to that rule). */
export const RULE_IN_NAME = /\brule:([a-z0-9]+(?:-[a-z0-9]+)*)/g;

/** A file given with --expected-failures that cannot be used: the run stops with exit 2 and this one sentence. */
export class ExpectedFailuresError extends Error {}

/**
 * Reads an expected-failures file (spec/schemas/expected-failures.schema.json, YAML or JSON): rule id → reason.
 * A missing or unreadable file, one that does not match the schema, or one naming a rule the catalogue does not
 * have throws ExpectedFailuresError with one sentence (a typo would otherwise silently expect nothing).
 */
export function readExpectedFailures(path: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ExpectedFailuresError(`cannot read the expected-failures file ${path}; pass an existing file to --expected-failures.`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new ExpectedFailuresError(`the expected-failures file ${path} is not YAML or JSON: ${(error as Error).message.split('\n')[0]!.replace(/:$/, '')}.`);
  }
  const validate = sharedAjv().getSchema(`${SPEC_BASE}schemas/expected-failures.schema.json`)!;
  if (!validate(doc)) {
    throw new ExpectedFailuresError(`the expected-failures file ${path} does not match spec/schemas/expected-failures.schema.json: ${sharedAjv().errorsText(validate.errors)}.`);
  }
  const entries = (doc as ExpectedFailures).expected;
  const known = ruleIds();
  const unknown = entries.map((e) => e.rule).filter((rule) => !known.has(rule));
  if (unknown.length) throw new ExpectedFailuresError(`the expected-failures file ${path} names rules that are not in the catalogue (spec/rules): ${unknown.join(', ')}.`);
  return new Map(entries.map((e) => [e.rule, e.reason]));
}

/** Rule id → the files of `dir` (paths from the repository) whose text names it with `re` (its first group). */
function filesByRule(repo: string, dir: string, ext: string, re: RegExp): Map<string, string[]> {
  const byRule = new Map<string, string[]>();
  for (const file of readdirSync(join(repo, dir)).filter((f) => f.endsWith(ext))) {
    const path = `${dir}/${file}`;
    for (const rule of new Set([...readFileSync(join(repo, path), 'utf8').matchAll(re)].map((m) => m[1]!))) byRule.set(rule, [...(byRule.get(rule) ?? []), path]);
  }
  return byRule;
}

/** Rule id → the feature files with a scenario, rule or feature tagged @rule:<id> (also @wip ones). */
export const featureFilesByRule = (repo: string) => filesByRule(repo, 'features', '.feature', /@rule:([a-z0-9-]+)/g);

/** Rules named anywhere in the suite's sources: @rule tags in features (also @wip ones) and property test names. */
export function rulesNamedInSuite(repo: string): { features: Set<string>; properties: Set<string> } {
  return { features: new Set(featureFilesByRule(repo).keys()), properties: new Set(filesByRule(repo, 'conformance/properties', '.test.ts', RULE_IN_NAME).keys()) };
}
