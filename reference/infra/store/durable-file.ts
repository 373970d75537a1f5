// Crash-safe file writes for the store (rules error-business-failure-rolls-back, store-durable-commit): the
// new content goes to a fresh temporary file that is fsync'd, renamed over the target, and the directory is
// fsync'd so the rename itself survives a power loss. A reader sees the old file or the new one, never a torn
// one, and an acknowledged write is on the disk.
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `text` atomically and durably. `syncDirectory: false` leaves the directory's fsync to a
 * caller that writes several files of one directory and syncs it once (journal.ts). `tempDir` (on the same file
 * system) holds the temporary file instead of the file's own directory, so that a caller can remove what a crash
 * left in one place (the store's data/tmp, emptied at open).
 */
export async function writeFileDurably(file: string, text: string | Uint8Array, options: { syncDirectory?: boolean; tempDir?: string } = {}): Promise<void> {
  const temp = join(options.tempDir ?? dirname(file), `${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (options.syncDirectory !== false) await fsyncDirectory(dirname(file));
}
