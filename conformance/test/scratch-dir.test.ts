// Where throwaway stores go (conformance/lib/scratch-dir.ts): a repository check, not a source rule.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryBackedDir, scratchDir, usableForScratch } from '../lib/scratch-dir.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const GiB = 1024 ** 3;
const TMPFS = 0x01021994;
const EXT4 = 0xef53;
const roomy = { type: TMPFS, freeBytes: 12 * GiB, memoryBytes: 20 * GiB, executable: true };

describe('scratch-dir', () => {
  const saved = process.env.TMPDIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('only a roomy tmpfs where files may run holds a run\'s throwaway files', () => {
    expect(usableForScratch(roomy)).toBe(true);
    expect(usableForScratch({ ...roomy, type: EXT4 })).toBe(false);
    // A container's default /dev/shm.
    expect(usableForScratch({ ...roomy, freeBytes: 64 * 1024 ** 2 })).toBe(false);
    // A tmpfs larger than the memory left to fill it.
    expect(usableForScratch({ ...roomy, memoryBytes: GiB })).toBe(false);
    expect(usableForScratch({ ...roomy, executable: false })).toBe(false);
  });

  it('a directory that is not a tmpfs, or does not exist, is not memory', () => {
    if (statfsSync(repo).type !== TMPFS) expect(memoryBackedDir(repo)).toBeUndefined();
    expect(memoryBackedDir(join(repo, 'no-such-directory'))).toBeUndefined();
  });

  it('/dev/shm is used when the mount table shows a roomy tmpfs there that is not noexec', () => {
    // The mount table is a second witness for the probe memoryBackedDir makes (a probe that always failed would
    // quietly keep every store on the disk).
    if (!existsSync('/proc/self/mounts') || !existsSync('/dev/shm')) return;
    const mount = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((line) => line.split(' ')).findLast((fields) => fields[1] === '/dev/shm');
    const fs = statfsSync('/dev/shm');
    const roomy = fs.bavail * fs.bsize >= 2 * GiB && freemem() >= 2 * GiB;
    if (mount?.[2] === 'tmpfs' && fs.type === TMPFS && roomy && !mount[3]!.split(',').includes('noexec')) expect(memoryBackedDir()).toBe('/dev/shm');
    if (mount?.[3]?.split(',').includes('noexec')) expect(memoryBackedDir()).toBeUndefined();
  });

  it('a TMPDIR the user set is used as it is', () => {
    process.env.TMPDIR = '/var/tmp';
    expect(scratchDir()).toBe('/var/tmp');
  });

  it('without TMPDIR, memory when the machine has a usable tmpfs, else the OS default', () => {
    delete process.env.TMPDIR;
    const memory = memoryBackedDir();
    expect(scratchDir()).toBe(memory ?? tmpdir());
    if (memory) expect(statfsSync(memory).type).toBe(TMPFS);
  });

  it('a run made its own directory in memory (vitest.config.ts), is in it, and removes it when the run ends', () => {
    const run = process.env.SITE_MCP_RUN_SCRATCH;
    // Only where the config found memory and no TMPDIR was set before the run.
    if (!run) return;
    expect(tmpdir()).toBe(run);
    expect(run.startsWith(`${memoryBackedDir()}/site-mcp-run-`)).toBe(true);
    // The same function in a process of its own: its directory goes with it.
    const child = spawnSync(process.execPath, ['--import', 'tsx/esm', '-e', "const m = await import('./conformance/lib/scratch-dir.ts'); const d = m.memoryScratchForRun(); console.log(JSON.stringify({ d, t: (await import('node:os')).tmpdir() }));"], {
      cwd: repo,
      env: { ...process.env, TMPDIR: '', SITE_MCP_RUN_SCRATCH: '', NODE_OPTIONS: '' },
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    const { d, t } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { d: string; t: string };
    expect(t).toBe(d);
    expect(d.startsWith(`${memoryBackedDir()}/site-mcp-run-`)).toBe(true);
    expect(existsSync(d)).toBe(false);
  });
});
