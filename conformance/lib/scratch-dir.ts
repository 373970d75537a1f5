// Where throwaway stores go: the data directories of the servers the kit and the tests start and remove again, in
// memory (/dev/shm, a tmpfs) when the machine has one with room, else the OS temporary directory (issue 16).
//
// Why: the store writes every document atomically (reference/store/durable-file.ts: a new temporary file, fsync,
// rename over the old one), so each write makes an inode and frees one. On an ext4 without a journal, as this
// project's 2-core machine's root (/proc/fs/jbd2 lists no device), a new inode skips every one freed in the last
// seconds, or minutes while its inode-table block is not yet written back, so a file creation costs more the more
// files were replaced just before it, by any process: `perf record`
// of a reference through one conformance run put 26% of its CPU in ext4's find_inode_bit/recently_deleted, and the
// run took 15.2 s with the store there against 10.6 s on /dev/shm (8.5 s against 6.1 s of the server's CPU).
//
// What it does not change: the store's code path is the same (it still fsyncs; on tmpfs that returns at once), and
// no test depends on the disk: a test kills processes, never the machine, and a killed process's writes outlive it
// in the page cache just as on a disk. A directory the user chose (TMPDIR set) is used as it is.
import { accessSync, constants, readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

const MEMORY_DIR = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
// A container's /dev/shm is often 64 MB: the test run installs the packed kit with its dependencies under the
// temporary directory (conformance/test/packed-tarball.test.ts), so a small one is not used.
const MIN_FREE_BYTES = 2 * 1024 ** 3;

/**
 * Whether the mount at `dir`, in `mounts` (the text of /proc/self/mounts), lets files run: a hardened /dev/shm is
 * noexec, and tests run scripts they write under the temporary directory (a fake browser, the packed kit's bin).
 */
export function allowsExecution(dir: string, mounts: string): boolean {
  const mount = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .findLast((fields) => fields[1] === dir);
  return mount !== undefined && !mount[3]!.split(',').includes('noexec');
}

/** /dev/shm when it is a writable tmpfs with at least 2 GiB free that lets files run, else undefined. */
export function memoryBackedDir(): string | undefined {
  try {
    const fs = statfsSync(MEMORY_DIR);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < MIN_FREE_BYTES) return undefined;
    accessSync(MEMORY_DIR, constants.W_OK);
    return allowsExecution(MEMORY_DIR, readFileSync('/proc/self/mounts', 'utf8')) ? MEMORY_DIR : undefined;
  } catch {
    return undefined;
  }
}

/** The parent directory for a throwaway server's data directory: TMPDIR when set, else memory when there is some, else the OS default. */
export function scratchDir(): string {
  return process.env.TMPDIR ? tmpdir() : (memoryBackedDir() ?? tmpdir());
}
