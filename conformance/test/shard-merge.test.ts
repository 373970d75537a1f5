// Splitting a run over machines (conformance/cli.ts --shard I/N) and joining their reports (conformance/merge-reports.ts):
// two shards of a small selection run every scenario exactly once between them, and their merged report counts what
// one run of the same selection counts. Reports that are not the shards of one run are refused with one sentence.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type Target } from '../lib/target.js';
import { runNode } from './run-command.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Four scenarios, a few seconds a run with --parallel 1.
const SELECTION = 'features/site-read.feature';
let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-shard-'));
}, 60_000);
afterAll(async () => {
  await target?.stop();
  await rm(dir, { recursive: true, force: true });
});

const tsx = (script: string, args: string[]) => runNode(['--import', 'tsx/esm', script, ...args], repo);

const run = (reportDir: string, extra: string[] = []) =>
  tsx('conformance/cli.ts', ['--url', target.url, '--fixtures-secret', target.fixturesSecret, '--parallel', '1', '--seed', '5', '--report-dir', join(dir, reportDir), ...extra, SELECTION]);

interface Written { summary: Record<string, number>; scenarios: { where: string; status: string }[]; rules: { rule: string; status: string }[] }
const read = async (reportDir: string) => JSON.parse(await readFile(join(dir, reportDir, 'conformance.json'), 'utf8')) as Written;

describe('--shard and merge-reports', () => {
  it('two shards run every scenario of the selection once and merge to the counts of one run', async () => {
    const [whole, first, second] = await Promise.all([run('whole'), run('shard-1', ['--shard', '1/2']), run('shard-2', ['--shard', '2/2'])]);
    for (const r of [whole, first, second]) expect(r.code, r.stdout.slice(-1500) + r.stderr).toBe(0);
    const [one, a, b] = await Promise.all([read('whole'), read('shard-1'), read('shard-2')]);
    expect(a.scenarios.length).toBeGreaterThan(0);
    expect(b.scenarios.length).toBeGreaterThan(0);
    const sharded = [...a.scenarios, ...b.scenarios].map((s) => s.where);
    expect(new Set(sharded).size, 'no scenario in both shards').toBe(sharded.length);
    expect(sharded.sort()).toEqual(one.scenarios.map((s) => s.where).sort());

    const merged = await tsx('conformance/merge-reports.ts', ['--out', join(dir, 'merged'), join(dir, 'shard-1'), join(dir, 'shard-2')]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const m = await read('merged');
    expect(m.summary).toEqual(one.summary);
    expect(m.rules.map((r) => [r.rule, r.status])).toEqual(one.rules.map((r) => [r.rule, r.status]));
    for (const file of ['rules.json', 'summary.md', 'junit.xml', 'report.html']) await expect(readFile(join(dir, 'merged', file), 'utf8')).resolves.toBeTruthy();

    // Not the shards of one run: a missing shard, one shard twice, a whole run beside a shard.
    for (const [dirs, said] of [
      [['shard-1'], /shard 2\/2 is missing/],
      [['shard-1', 'shard-1'], /both shard 1\/2/],
      [['shard-1', 'whole'], /is not a shard but others are/],
    ] as const) {
      const refused = await tsx('conformance/merge-reports.ts', ['--out', join(dir, 'refused'), ...dirs.map((d) => join(dir, d))]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n'), refused.stderr).toHaveLength(1);
      expect(refused.stderr).toMatch(said);
    }
  }, 180_000);

  it('refuses a shard that is not I/N with 1 <= I <= N in one sentence', async () => {
    const refused = await tsx('conformance/cli.ts', ['--shard', '3/2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('--shard takes I/N with 1 <= I <= N, e.g. --shard 2/4, got "3/2".');
  });
});
