// Where throwaway stores go (conformance/lib/scratch-dir.ts, issue 16): a repository check, not a source rule.
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { allowsExecution, memoryBackedDir, scratchDir } from '../lib/scratch-dir.js';

const MOUNTS = [
  'proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0',
  'tmpfs /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime 0 0',
  'tmpfs /dev/shm tmpfs rw,relatime,size=24683656k 0 0',
  'tmpfs /run/lock tmpfs rw,nosuid,nodev,noexec,relatime,size=5120k 0 0',
].join('\n');

describe('scratch-dir', () => {
  const saved = process.env.TMPDIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('reads the mount that is in force: the last line for the directory, noexec or not', () => {
    expect(allowsExecution('/dev/shm', MOUNTS)).toBe(true);
    expect(allowsExecution('/dev/shm', MOUNTS.split('\n').slice(0, 2).join('\n'))).toBe(false);
    expect(allowsExecution('/run/lock', MOUNTS)).toBe(false);
    expect(allowsExecution('/dev/shm/x', MOUNTS)).toBe(false);
  });

  it('a TMPDIR the user set is used as it is', () => {
    process.env.TMPDIR = '/var/tmp';
    expect(scratchDir()).toBe('/var/tmp');
  });

  it('without TMPDIR, memory when the machine has a usable tmpfs, else the OS default', () => {
    delete process.env.TMPDIR;
    const memory = memoryBackedDir();
    expect(scratchDir()).toBe(memory ?? tmpdir());
    if (memory) expect(statfsSync(memory).type).toBe(0x01021994);
  });
});
