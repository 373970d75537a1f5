// The house rules of AGENTS.md held by dependency-cruiser (.dependency-cruiser.cjs): no import cycle, the kit never
// imports the reference (nor the reference the kit), no tool imports another, the domain imports no HTTP, no layer of
// the reference imports one above it, only test mode imports reference/testing/. What broke a rule before it was written down is listed in
// .dependency-cruiser-known-violations.json; a new violation fails here, and so does a listed one that is mended
// (the list may only shrink: `npx depcruise … --output-type baseline` rewrites it, as the config's header says).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const SCOPE = ['reference', 'conformance', 'features', 'spec', 'bench', 'examples'];

interface Violation { type: string; from: string; to: string; rule: { name: string } }
const key = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('house rules (dependency-cruiser)', () => {
  it('holds every rule but the known violations, and every known violation is still there', () => {
    const run = spawnSync(process.execPath, [join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'), ...SCOPE, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: repo, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(run.error, run.stderr).toBeUndefined();
    const result = JSON.parse(run.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
    expect(result.summary.totalCruised).toBeGreaterThan(200);
    const found = new Set(result.summary.violations.map(key));
    const known = new Set((JSON.parse(readFileSync(join(repo, '.dependency-cruiser-known-violations.json'), 'utf8')) as Violation[]).map(key));
    expect([...found].filter((v) => !known.has(v)), 'new violations of the house rules').toEqual([]);
    expect([...known].filter((v) => !found.has(v)), 'mended: remove them from .dependency-cruiser-known-violations.json').toEqual([]);
    // No cycle may be kept as known, and at most three imports up the layers.
    expect([...known].filter((v) => v.startsWith('no-cycles:'))).toEqual([]);
    expect([...known].filter((v) => v.startsWith('no-import-up-the-layers:')).length).toBeLessThanOrEqual(3);
  }, 60_000);
});

// AGENTS.md's rule "casts carry their reason", for the reference's core: `reference/tools`, `reference/domain` and
// what left domain/ when the folders were sorted by audience (`reference/infra` but its store, and auth's
// authenticate, tokens and passwords) hold at most CAST_BUDGET type assertions (`x as T`, `<T>x`; `as const` is no assertion) and non-null assertions
// (`x!`), and each one says why it is safe in a comment on its line or the line above: `// cast: <the invariant>`.
// Counted with the TypeScript compiler's own parser, so a cast inside a string or comment is never counted. The
// budget is the count today: it may only go down.
const CAST_SCOPE = ['reference/tools', 'reference/domain', 'reference/infra', 'reference/auth/authenticate.ts', 'reference/auth/tokens.ts', 'reference/auth/passwords.ts'];
/** Never counted: the store was not part of the core when the budget was set. */
const CAST_SCOPE_NOT = ['reference/infra/store'];
const CAST_BUDGET = 14;
const CAST_REASON = /\/[/*]\s*cast:\s*\S.{8,}/;

interface Assertion { at: string; kind: string; reasoned: boolean }

function assertionsIn(file: string): Assertion[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split('\n');
  const found: Assertion[] = [];
  const record = (kind: string, position: number) => {
    const line = source.getLineAndCharacterOfPosition(position).line;
    const reasoned = CAST_REASON.test(lines[line] ?? '') || CAST_REASON.test(lines[line - 1] ?? '');
    found.push({ at: `${relative(repo, file)}:${line + 1}`, kind, reasoned });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !ts.isConstTypeReference(node.type)) record(`as ${node.type.getText(source)}`, node.type.getStart(source));
    else if (ts.isTypeAssertionExpression(node) && !ts.isConstTypeReference(node.type)) record(`<${node.type.getText(source)}>`, node.getStart(source));
    else if (ts.isNonNullExpression(node)) record('!', node.getEnd() - 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  if (CAST_SCOPE_NOT.some((not) => join(repo, not) === dir)) return [];
  if (dir.endsWith('.ts')) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('house rules (casts in the reference core)', () => {
  const assertions = CAST_SCOPE.flatMap((dir) => sourceFiles(join(repo, dir))).flatMap(assertionsIn);

  it('reads the files it counts', () => {
    expect(CAST_SCOPE.flatMap((dir) => sourceFiles(join(repo, dir))).length).toBeGreaterThan(30);
  });

  it(`holds at most ${CAST_BUDGET} type and non-null assertions in ${CAST_SCOPE.join(' and ')}`, () => {
    expect(assertions.length, `${assertions.length} assertions:\n${assertions.map((a) => `${a.at} ${a.kind}`).join('\n')}`).toBeLessThanOrEqual(CAST_BUDGET);
  });

  it('gives each remaining assertion its reason (`// cast: …` on its line or the line above)', () => {
    expect(assertions.filter((a) => !a.reasoned).map((a) => `${a.at} ${a.kind}`), 'assertions without a `// cast:` reason').toEqual([]);
  });
});
