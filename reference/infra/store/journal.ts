// Commits of several files, all or none across a crash (rules store-durable-commit, store-lookups-with-document,
// company-creation-atomic). A commit that changes one file replaces it atomically (durable-file.ts). A commit
// that changes more (a site and its workspace document, a lookup entry with its record, a new company with the
// plan it redeems) first writes an intent file to data/journal/ that names every file's new text and every file
// it removes: written durably and renamed into place, it is the commit point. Then the files are written, and
// the intent file is removed (durably, so an old intent can never be replayed over a later write). Store.open
// replays every intent file it finds before anything is read, so a crash at any moment leaves each document as
// before the commit (no intent file) or as after it (the intent file is replayed), never half of a commit.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDirectory, writeFileDurably } from './durable-file.js';

/** A commit: new texts of files and files to remove, paths relative to the data directory. */
export interface Intent {
  writes: { path: string; text: string }[];
  removes: string[];
}

/** Called before each file a commit writes or removes (relative path); a throw fails that write as a disk error would. */
export type BeforeFileWrite = (path: string) => void;

const INTENT_FORMAT = 'site-mcp-intent-1';
const APPLY_BATCH = 16;

export class Journal {
  readonly #dataDir: string;
  readonly #dir: string;
  /** Where every temporary file goes (emptied by Store.open): a crash leaves none beside a document. */
  readonly #tempDir: string;
  readonly #beforeFileWrite: BeforeFileWrite | undefined;
  #sequence = 0;

  constructor(dataDir: string, beforeFileWrite?: BeforeFileWrite) {
    this.#dataDir = dataDir;
    this.#dir = join(dataDir, 'journal');
    this.#tempDir = join(dataDir, 'tmp');
    this.#beforeFileWrite = beforeFileWrite;
  }

  /**
   * Makes `intent` durable. Resolves once the commit point is passed; `applied` settles once the files are
   * written (a failure there leaves the intent file, which `retry` or the next Store.open applies).
   */
  async commit(intent: Intent): Promise<{ applied: Promise<void>; retry: () => Promise<void> }> {
    const done = { applied: Promise.resolve(), retry: () => Promise.resolve() };
    if (intent.writes.length + intent.removes.length === 0) return done;
    if (intent.writes.length === 1 && intent.removes.length === 0) {
      // One file: its atomic replacement is the whole commit.
      const [only] = intent.writes;
      this.#beforeFileWrite?.(only!.path);
      const file = join(this.#dataDir, only!.path);
      const dirs = await makeDirectoryOf(file);
      await writeFileDurably(file, only!.text, { tempDir: this.#tempDir });
      for (const dir of dirs) await fsyncDirectory(dir);
      return done;
    }
    // Names sort in commit order, so replay applies older intents first.
    const name = `${Date.now().toString(36).padStart(10, '0')}-${(this.#sequence++).toString(36).padStart(6, '0')}-${randomBytes(4).toString('hex')}.json`;
    this.#beforeFileWrite?.(`journal/${name}`);
    await writeFileDurably(join(this.#dir, name), JSON.stringify({ format: INTENT_FORMAT, ...intent }), { tempDir: this.#tempDir });
    const retry = () => this.#apply(name, intent);
    return { applied: retry(), retry };
  }

  /** Applies every intent file a crash or a failed write left, oldest first (Store.open, before any read). */
  async replay(): Promise<number> {
    await mkdir(this.#dir, { recursive: true });
    const names = (await readdir(this.#dir)).sort();
    let replayed = 0;
    for (const name of names) {
      const parsed = JSON.parse(await readFile(join(this.#dir, name), 'utf8')) as Intent & { format?: string };
      if (parsed.format !== INTENT_FORMAT) throw new Error(`journal/${name} is not an intent file this server can apply`);
      await this.#apply(name, parsed);
      replayed++;
    }
    return replayed;
  }

  async #apply(name: string, intent: Intent): Promise<void> {
    const dirs = new Set<string>();
    const steps = [
      ...intent.writes.map(({ path, text }) => async () => {
        this.#beforeFileWrite?.(path);
        const file = join(this.#dataDir, path);
        for (const dir of await makeDirectoryOf(file)) dirs.add(dir);
        await writeFileDurably(file, text, { syncDirectory: false, tempDir: this.#tempDir });
        dirs.add(dirname(file));
      }),
      ...intent.removes.map((path) => async () => {
        this.#beforeFileWrite?.(path);
        const file = join(this.#dataDir, path);
        await rm(file, { force: true });
        dirs.add(dirname(file));
      }),
    ];
    // A few files at a time: their fsyncs overlap (a new 1,000-site workspace is not 1,000 fsyncs in a row), and
    // every write of a batch has settled before a failure is reported, so nothing of this commit runs on after it.
    for (let start = 0; start < steps.length; start += APPLY_BATCH) {
      const settled = await Promise.allSettled(steps.slice(start, start + APPLY_BATCH).map((step) => step()));
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
    // The renames and removals are on the disk before the intent goes: the intent is what survives otherwise.
    for (const dir of dirs) await fsyncDirectory(dir);
    await rm(join(this.#dir, name), { force: true });
    await fsyncDirectory(this.#dir);
  }
}

/**
 * Makes the directory of `file` if it is missing (a new workspace's); answers the directories whose entries that
 * added, which must be fsync'd for the new directories to survive a power loss.
 */
async function makeDirectoryOf(file: string): Promise<string[]> {
  const made = await mkdir(dirname(file), { recursive: true });
  const parents: string[] = [];
  if (made) for (let dir = dirname(file); dir.length >= made.length; dir = dirname(dir)) parents.push(dirname(dir));
  return parents;
}
