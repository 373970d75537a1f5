// Where throwaway stores go: the data directories of the servers the kit and the tests start and remove again, in
// memory (/dev/shm, a tmpfs) when the machine has a usable one, else the OS temporary directory.
//
// Why: the store writes every document atomically (reference/infra/store/durable-file.ts: a new temporary file, fsync,
// rename over the old one), so each write makes an inode and frees one. On an ext4 without a journal, as this
// project's 2-core machine's root (/proc/fs/jbd2 lists no device), a new inode skips every one freed in the last
// minute, or six while its inode-table block is dirty (ext4's recently_deleted), so a file creation costs more the
// more files were replaced just before it, by any process: `perf record` of a reference through one conformance run
// put 26% of its CPU in ext4's find_inode_bit/recently_deleted, and the run took 15.2 s with the store there against
// 10.6 s on /dev/shm (8.5 s against 6.1 s of the server's CPU).
//
// What it does not change: the store's code path is the same (it still fsyncs; on tmpfs that returns at once), and
// no test depends on the disk: a test kills processes, never the machine, and a killed process's writes outlive it
// in the page cache just as on a disk. A directory the user chose (TMPDIR set) is used as it is.
import { accessSync, constants, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';

const MEMORY_DIR = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
// A container's /dev/shm is often 64 MB, and a tmpfs's free space is its size cap, not memory: the test run installs
// the packed kit with its dependencies under the temporary directory (conformance/test/packed-tarball.test.ts).
const MIN_FREE_BYTES = 2 * 1024 ** 3;

export interface ScratchCandidate {
  /** statfs's file system type. */
  type: number;
  /** What the file system would still take (statfs bavail × bsize). */
  freeBytes: number;
  /** What the machine has available (os.freemem, Linux's MemAvailable): a tmpfs's pages are memory. */
  memoryBytes: number;
  /** Whether a file written there may run: a hardened /dev/shm is noexec, and tests run scripts they write under the temporary directory. */
  executable: boolean;
}

/** Whether a directory with these properties may hold a run's throwaway files. */
export function usableForScratch(candidate: ScratchCandidate): boolean {
  return candidate.type === TMPFS_MAGIC && candidate.freeBytes >= MIN_FREE_BYTES && candidate.memoryBytes >= MIN_FREE_BYTES && candidate.executable;
}

/** Writes an executable file in `dir` and asks the kernel whether it may run (access X_OK fails on a noexec mount). */
function filesMayRun(dir: string): boolean {
  const probe = mkdtempSync(join(dir, 'site-mcp-probe-'));
  try {
    writeFileSync(join(probe, 'run'), '#!/bin/sh\n', { mode: 0o755 });
    accessSync(join(probe, 'run'), constants.X_OK);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Each directory's answer, once per process (the probe writes a file). */
const answers = new Map<string, string | undefined>();

/** `dir` (default /dev/shm) when it is a tmpfs with 2 GiB free, the machine has 2 GiB available, and files written there may run; else undefined. */
export function memoryBackedDir(dir = MEMORY_DIR): string | undefined {
  if (!answers.has(dir)) {
    let usable: boolean;
    try {
      const fs = statfsSync(dir);
      // The probe writes a file: only where the rest already holds.
      usable = usableForScratch({ type: fs.type, freeBytes: fs.bavail * fs.bsize, memoryBytes: freemem(), executable: true }) && filesMayRun(dir);
    } catch {
      usable = false;
    }
    answers.set(dir, usable ? dir : undefined);
  }
  return answers.get(dir);
}

/** The parent directory for a throwaway server's data directory: TMPDIR when set, else memory when there is some, else the OS default. */
export function scratchDir(): string {
  return process.env.TMPDIR ? tmpdir() : (memoryBackedDir() ?? tmpdir());
}

/**
 * For a test run (vitest.config.ts): unless TMPDIR is set, makes a directory of the run's own in memory, points
 * TMPDIR (read by os.tmpdir() in this process and every process started after) and SITE_MCP_RUN_SCRATCH at it, and
 * removes it when this process exits, so nothing the run wrote stays in memory. Answers it, or undefined when the
 * run keeps the usual temporary directory.
 */
export function memoryScratchForRun(): string | undefined {
  if (process.env.TMPDIR) return undefined;
  const parent = memoryBackedDir();
  if (!parent) return undefined;
  const dir = mkdtempSync(join(parent, 'site-mcp-run-'));
  process.env.TMPDIR = dir;
  process.env.SITE_MCP_RUN_SCRATCH = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
