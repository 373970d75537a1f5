// The house rules of AGENTS.md held by dependency-cruiser (.dependency-cruiser.cjs): no import cycle, the kit never
// imports the reference (nor the reference the kit), no tool imports another, the domain imports no HTTP, only test
// mode imports reference/testing/. What broke a rule before it was written down is listed in
// .dependency-cruiser-known-violations.json; a new violation fails here, and so does a listed one that is mended
// (the list may only shrink: `npx depcruise … --output-type baseline` rewrites it, as the config's header says).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  }, 60_000);
});
