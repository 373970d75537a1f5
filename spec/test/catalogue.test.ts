// The rule catalogue and the tool catalogue hold together: unique IDs, real sections, every tool scoped and
// ruled, and every rule ID anywhere in features/ or tests exists (like Test262's anchor lint).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAjv, loadJson, loadPlanStates, loadRuleFiles, loadRules, loadTools, ruleIds, toolFiles, SPEC_BASE } from '../index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = process.env.SITE_MCP_SOURCE ?? fileURLToPath(new URL('../../../shared/source/agent-mcp-interface.md', import.meta.url));
/**
 * The tests that compare the catalogue with the source document need it (README, "The source document"). In a
 * clone with nothing beside it they are skipped with a sentence that says where it goes; CI always runs them.
 */
const SOURCE_PRESENT = existsSync(SOURCE);
const withSource = SOURCE_PRESENT || process.env.CI ? it : it.skip;
if (!SOURCE_PRESENT && !process.env.CI) console.warn(`spec/test/catalogue.test.ts: the source document is not at ${SOURCE}; the two tests that compare the catalogue with it are skipped. Put it there or name it with SITE_MCP_SOURCE.`);

/** Section numbers that exist in the source: "## N." headings, "### N.M" headings, and numbered items under "## N.". */
function sourceSections(): Set<string> {
  const sections = new Set<string>();
  let top = '';
  let item = 0;
  for (const line of readFileSync(SOURCE, 'utf8').split('\n')) {
    const h2 = /^## (\d+)\./.exec(line);
    const h3 = /^### (\d+\.\d+)/.exec(line);
    const li = /^(\d+)\. /.exec(line);
    if (h2) {
      top = h2[1]!;
      item = 0;
      sections.add(top);
    } else if (h3) sections.add(h3[1]!);
    else if (li && top) sections.add(`${top}.${li[1]}`), (item = Number(li[1]));
  }
  void item;
  return sections;
}

/** The tool names of the source's §4.3 table: its second column, each name in backticks. */
function sourceToolNames(): string[] {
  const text = readFileSync(SOURCE, 'utf8');
  const table = text.slice(text.indexOf('### 4.3'), text.indexOf('### 4.4'));
  const names = table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Scope') && !line.startsWith('|---'))
    .flatMap((line) => [...(line.split('|')[2] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(filesUnder(path, accept));
    else if (accept(name)) out.push(path);
  }
  return out;
}

describe('rule catalogue', () => {
  const rules = loadRules();

  it('has every file valid against spec/schemas/rule.schema.json', () => {
    const validate = createAjv().getSchema(`${SPEC_BASE}schemas/rule.schema.json`)!;
    for (const { file, content } of loadRuleFiles()) {
      expect(validate(content), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('has unique rule IDs', () => {
    const seen = new Map<string, string>();
    const duplicates = rules.filter((r) => (seen.has(r.id) ? true : (seen.set(r.id, r.file), false))).map((r) => `${r.id} (${r.file} and ${seen.get(r.id)})`);
    expect(duplicates).toEqual([]);
  });

  withSource('names only sections that exist in the source document', () => {
    const sections = sourceSections();
    const unknown = rules.filter((r) => !sections.has(r.section)).map((r) => `${r.id}: §${r.section}`);
    expect(unknown).toEqual([]);
  });

  it('covers every section of the source document (1 to 9)', () => {
    const top = new Set(rules.map((r) => r.section.split('.')[0]));
    expect([...top].sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    console.log(`rule catalogue: ${rules.length} rules (${rules.filter((r) => r.decision).length} decisions, ${rules.filter((r) => r.untestable).length} untestable)`);
  });

  it('names, for every rule no black-box check can observe (blackBox: false), test files that exist and name it', () => {
    const wrong: string[] = [];
    for (const rule of rules.filter((r) => r.blackBox === false)) {
      for (const file of rule.checkedBy ?? []) {
        let text = '';
        try {
          text = readFileSync(join(repo, file), 'utf8');
        } catch {
          wrong.push(`${rule.id}: ${file} does not exist`);
          continue;
        }
        if (!text.includes(rule.id)) wrong.push(`${rule.id}: ${file} never names the rule`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lint: every rule ID referenced in features/, tests and conformance/ exists in the catalogue', () => {
    const ids = ruleIds();
    const unknown: string[] = [];
    const files = [
      ...filesUnder(join(repo, 'features'), (n) => n.endsWith('.feature') || n.endsWith('.ts')),
      ...filesUnder(join(repo, 'conformance'), (n) => n.endsWith('.ts') || n.endsWith('.yaml')),
      ...filesUnder(join(repo, 'reference'), (n) => n.endsWith('.test.ts')),
      ...filesUnder(join(repo, 'spec', 'test'), (n) => n.endsWith('.test.ts')),
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/[@ '"`(]rule:([a-z0-9]+(?:-[a-z0-9]+)*)/g)) {
        if (!ids.has(match[1]!)) unknown.push(`${file.slice(repo.length)}: rule:${match[1]}`);
      }
    }
    expect(unknown, 'unknown rule IDs (add them to spec/rules or fix the tag)').toEqual([]);
    // The lint must see real references, or it checks nothing.
    expect(files.length).toBeGreaterThan(0);
  });
});

describe('tool catalogue', () => {
  const tools = loadTools();
  const ids = ruleIds();
  const scopes = new Set(loadJson<{ scopes: { name: string }[] }>('scopes.json').scopes.map((s) => s.name));

  it('has every definition valid against spec/schemas/tool-definition.schema.json, named after its file', () => {
    const validate = createAjv().getSchema(`${SPEC_BASE}schemas/tool-definition.schema.json`)!;
    for (const { file, definition } of toolFiles()) {
      expect(validate(definition), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(file).toBe(`tools/${definition.name}.json`);
    }
  });

  withSource('holds exactly the tools of the source\'s §4.3 table (a new tool needs a new revision of the source first)', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(sourceToolNames());
  });

  it('gives every tool a known scope (confirm_pending_action re-checks its plan\'s) and at least one known rule', () => {
    for (const tool of tools) {
      if (tool.name !== 'confirm_pending_action') expect(tool.scopes.length, tool.name).toBeGreaterThan(0);
      for (const s of tool.scopes) expect(scopes.has(s), `${tool.name}: scope ${s}`).toBe(true);
      expect(tool.rules.length, tool.name).toBeGreaterThan(0);
      for (const r of tool.rules) expect(ids.has(r), `${tool.name}: rule ${r}`).toBe(true);
    }
  });

  it('rule:tools-since — marks exactly the tools of crm:write, domain:write, communications:write, access:write and ai:generate as existing from 2026-07-28', () => {
    const dated = new Set(['crm:write', 'domain:write', 'communications:write', 'access:write', 'ai:generate']);
    for (const tool of tools) expect(tool.since, tool.name).toBe(tool.scopes.some((s) => dated.has(s)) ? '2026-07-28' : undefined);
  });

  it('gives prepare_* tools a plan kind and no other tool one', () => {
    for (const tool of tools) expect(tool.planKind !== null, tool.name).toBe(tool.name.startsWith('prepare_'));
  });

  it('names the website each tool acts on ("target"): website exactly for the tools taking a websiteId, except a plan\'s and an approval anchor\'s', () => {
    type ObjectSchema = { properties?: Record<string, unknown>; oneOf?: ObjectSchema[] };
    for (const tool of tools) {
      const input = tool.inputSchema as ObjectSchema;
      const takesWebsiteId = 'websiteId' in (input.properties ?? {}) || (input.oneOf ?? []).some((b) => 'websiteId' in (b.properties ?? {}));
      expect(tool.target === 'none', tool.name).toBe(!takesWebsiteId);
      // A plan's websiteId only detects re-pointing (§2.6); only the redeeming tool has one.
      expect(tool.target === 'plan', tool.name).toBe(tool.name === 'confirm_pending_action');
      // An anchor only says where the owner approves: a plan kind that owns no website (rule plan-company-anchor-context-only).
      if (tool.target === 'anchor') expect(tool.plan?.anchor, tool.name).toBeDefined();
    }
  });

  it('gives every plan kind (common.schema.json PlanKind) exactly one prepare_* tool, which says what its plan pins and does', () => {
    const kinds = (loadJson<{ $defs: { PlanKind: { enum: string[] } } }>('schemas/common.schema.json').$defs.PlanKind.enum).sort();
    expect(tools.filter((t) => t.planKind !== null).map((t) => t.planKind).sort()).toEqual(kinds);
  });

  it('has spec/plan-states.json valid against its schema', () => {
    expect(() => loadPlanStates()).not.toThrow();
  });
});
