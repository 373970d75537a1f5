// A benchmark's command line answers a user's mistake with one sentence and exit 2, never a stack trace, and
// --help with the benchmark's usage (bench/lib/args.ts, bench/run.ts; README "Benchmarks").
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bench = (...args: string[]) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx/esm', 'bench/run.ts', ...args], { cwd: repo, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};
const oneSentence = (text: string) => text.trim().split('\n').filter((line) => line.trim());

describe('npm run bench', () => {
  it('answers an option a benchmark does not take with one sentence naming it and exit 2', () => {
    const run = bench('suite', '--paralel', '2');
    expect(run.code, run.stderr).toBe(2);
    expect(oneSentence(run.stderr)).toEqual([expect.stringMatching(/^bench suite: Unknown option '--paralel'; npm run bench -- suite --help lists its options\.$/)]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('answers a benchmark that does not exist with one sentence and exit 2', () => {
    const run = bench('suit');
    expect(run.code).toBe(2);
    expect(oneSentence(run.stderr)).toEqual([expect.stringMatching(/^bench: there is no benchmark named "suit"; npm run bench lists them \(.*\bsuite\b.*\)\.$/)]);
  });

  it('prints a benchmark\'s usage for --help and exits 0 without running it', () => {
    const run = bench('test-time', '--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^How long `npm test` takes/);
    expect(run.stdout).toContain('npm run bench -- test-time [--phases');
  });
});
