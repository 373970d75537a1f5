// The files of imported assets (rules import-site-assets-revalidated, portable-site-assets-carried): §4.3 fetches
// an import's asset URLs "through the same capped, rollback-safe pipeline as a manual bundle upload", so what a
// site keeps is the fetched copy, served from this server (GET /assets/<file>), never the source URL: the asset
// stays when the source changes or goes away, and a visitor's browser never calls the source. Files are named by
// their content (SHA-256), so the same bytes imported twice are one file and a file never changes once written;
// an import refused after its fetches removes the copies it wrote itself (AssetBatch, §7.3: no partial write
// remains; rule import-refused-leaves-no-files); what a crash leaves between the fetches and the commit is removed
// by the sweep at the next start (sweepAssetFiles below).
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably } from './durable-file.js';

/**
 * Keeps fetched bytes and answers where this server serves them: a path (`/assets/<file>`), so the site's record
 * holds no host or port; an export makes it absolute against the server's base URL (domain/portable-site.ts).
 */
export interface AssetFiles {
  /** Keeps `body`; with `batch`, the copy is the batch's until `settle(batch, …)` says whether it was committed. */
  keep(body: Buffer, contentType: string, batch?: AssetBatch): Promise<string>;
  /**
   * Ends `batch`: committed, its copies stay; refused, every copy it wrote that no other batch wrote or committed
   * meanwhile and that was not there before is removed (rule import-refused-leaves-no-files).
   */
  settle?(batch: AssetBatch, committed: boolean): Promise<void>;
}

/** The copies one import (or one capture of the queue) kept before its transaction. */
export class AssetBatch {
  readonly names = new Set<string>();
}

/** The served type of each kept file's extension; `bin` is a non-image asset (kind file), served as a download. */
export const ASSET_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  bin: 'application/octet-stream',
};

/** A kept file's name: 64 hex digits and one of the extensions above. */
export const ASSET_FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|avif|svg|bin)$/;

/** The extension for a fetched content type: its image type when it is one the import keeps, else `bin`. */
export function extensionOf(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const found = Object.entries(ASSET_TYPES).find(([ext, t]) => t === type && ext !== 'bin');
  return found ? found[0] : 'bin';
}

/** Files under `dir`, served at `/assets/<name>`. */
export class DiskAssetFiles implements AssetFiles {
  /**
   * Names that unsettled batches hold: how many batches, whether the file was absent before the first of them
   * wrote it (only such a file may be removed), and whether a batch holding it committed.
   */
  readonly #held = new Map<string, { holders: number; createdHere: Promise<boolean>; committed: boolean }>();

  constructor(private readonly dir: string) {}

  async keep(body: Buffer, contentType: string, batch?: AssetBatch): Promise<string> {
    const name = `${createHash('sha256').update(body).digest('hex')}.${extensionOf(contentType)}`;
    const path = join(this.dir, name);
    if (batch && !batch.names.has(name)) {
      batch.names.add(name);
      const held = this.#held.get(name);
      // Taken synchronously, before any await: of two batches keeping the same bytes, only the first looks whether
      // the file was there before.
      if (held) held.holders += 1;
      else this.#held.set(name, { holders: 1, createdHere: stat(path).then(() => false, () => true), committed: false });
    }
    await mkdir(this.dir, { recursive: true });
    await writeFileDurably(path, body);
    return `/assets/${name}`;
  }

  async settle(batch: AssetBatch, committed: boolean): Promise<void> {
    for (const name of batch.names) {
      const held = this.#held.get(name);
      if (!held) continue;
      held.holders -= 1;
      if (committed) held.committed = true;
      if (held.holders > 0) continue;
      const removable = !held.committed && (await held.createdHere);
      // Another batch took the same bytes while this one looked: that batch settles the file.
      if (held.holders > 0) continue;
      this.#held.delete(name);
      if (removable) await rm(join(this.dir, name), { force: true });
    }
    batch.names.clear();
  }

  /** The bytes of a kept file, or undefined for a name that is not one (never a path outside `dir`). */
  async read(name: string): Promise<Buffer | undefined> {
    if (!ASSET_FILE_NAME.test(name)) return undefined;
    return readFile(join(this.dir, name)).catch(() => undefined);
  }
}

/** Every kept file's name that a text names (`/assets/<sha256>.<ext>`, as keep() answers it). */
const NAMED_FILE = /\/assets\/([0-9a-f]{64}\.(?:png|jpg|gif|webp|avif|svg|bin))/g;

function absentAsEmpty(error: NodeJS.ErrnoException): string[] {
  if (error.code === 'ENOENT') return [];
  throw error;
}

/** At most this many files removed by one sweep: a start never spends unbounded time on leftovers. */
export const SWEEP_MAX_REMOVALS = 10_000;

/**
 * Removes the kept files that no stored document names: copies an import fetched before it failed (its
 * transaction never committed, so no site names them), copies of deleted sites, and the temporary files of keep()s
 * a crash interrupted. Run at server start (runtime.ts), after Store.open replayed every durable commit and before
 * anything can fetch, so no import is between its fetches and its commit, and every file a committed site names
 * is found in that site's document: the whole text of every document under data/workspaces is searched, so a
 * restore point's or a capture queue's copy counts as well as the draft's. A file is removed only when no document
 * names it; a crash mid-sweep leaves the rest for the next start (a removal is never needed for correctness, so
 * none is fsync'd). Bounded: each document read once, at most `maxRemovals` removals. Answers what it removed.
 */
export async function sweepAssetFiles(dataDir: string, { assetsDir = join(dataDir, 'assets'), maxRemovals = SWEEP_MAX_REMOVALS } = {}): Promise<string[]> {
  const present = await readdir(assetsDir).catch(absentAsEmpty);
  // Nothing kept, nothing to read: a server that never imported an asset pays one readdir.
  if (present.length === 0) return [];
  const named = new Set<string>();
  const workspaces = join(dataDir, 'workspaces');
  // Any document that cannot be read stops the sweep (the error propagates): a file it names must never look unnamed.
  for (const ws of await readdir(workspaces, { withFileTypes: true })) {
    if (!ws.isDirectory()) continue;
    const docs = [join(workspaces, ws.name, 'workspace.json')];
    for (const site of await readdir(join(workspaces, ws.name, 'sites')).catch(absentAsEmpty)) if (site.endsWith('.json')) docs.push(join(workspaces, ws.name, 'sites', site));
    for (const doc of docs) {
      const text = await readFile(doc, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
      for (const match of text.matchAll(NAMED_FILE)) named.add(match[1]!);
    }
  }
  const removed: string[] = [];
  for (const name of present) {
    if (removed.length >= maxRemovals) break;
    const leftover = name.endsWith('.tmp') || (ASSET_FILE_NAME.test(name) && !named.has(name));
    if (!leftover) continue;
    await rm(join(assetsDir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
