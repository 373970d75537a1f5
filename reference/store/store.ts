// The file-backed store: one lowdb document per workspace (data/workspaces/<id>.json) plus a directory of
// tiny files that map a website id, a token hash or a user email to its workspace. Writes touch one workspace
// document and at most a few directory entries, so their cost does not grow with the number of workspaces.
//
// transact() gives all-or-nothing business operations (rule error-business-failure-rolls-back, §7.3):
// - the operation mutates a copy parsed from the last committed text (no structuredClone, whose recursion
//   limit a deep document could exceed and so make every later write of its workspace fail);
// - the copy is serialized before anything is written, so a document that cannot be stored is refused here
//   and the workspace stays writable (rule tool-arguments-bounded keeps such input out in the first place);
// - directory entries the operation adds are written before the document (rule store-lookups-with-document):
//   a crash in between leaves an entry pointing at a workspace without that record, which reads as "not
//   found", never a record that exists but cannot be found;
// - the document is written durably (temp file, fsync, rename, directory fsync) and only then becomes what
//   reads see, so a failed write is not kept in memory either (rule store-durable-commit).
//
// holdCommits() runs a whole tool call with its writes held: each workspace it writes stays locked and is
// written only once the call's answer passed its check, so a call that fails after its last write keeps
// nothing (rule tool-answer-checked-before-commit).
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import type { WorkspaceDoc } from '../domain/model.js';
import { KeyedMutex } from './mutex.js';
import { writeFileDurably } from './durable-file.js';

export type DirectoryKind = 'site' | 'token' | 'connection' | 'email' | 'user' | 'hostname' | 'delivery' | 'oauth';

/** Lookup entries an operation adds; the store writes them before the document that holds their records. */
export interface Transaction {
  index(kind: DirectoryKind, key: string, value?: string): void;
  /**
   * A new workspace document that commits with this one or not at all (rule company-creation-atomic): written
   * just before this document, and removed again if this document's write then fails. A document that already
   * exists (a retry after a crash between the two writes) is adopted, not rewritten.
   */
  create(doc: WorkspaceDoc): void;
  /**
   * Undoes a side effect made outside the store (a file written for this operation) when the operation does
   * not commit: it throws, its write fails, or the tool call it belongs to fails before its writes are made.
   */
  onAbort(undo: () => unknown): void;
}

/** What an operation asked to commit besides its document. */
interface Pending {
  lookups: [DirectoryKind, string, string][];
  creations: WorkspaceDoc[];
  onAbort: (() => unknown)[];
}

const nothingPending = (): Pending => ({ lookups: [], creations: [], onAbort: [] });

function transactionFor(workspaceId: string, pending: Pending): Transaction {
  return {
    index: (kind, key, value = workspaceId) => void pending.lookups.push([kind, key, value]),
    create: (doc) => void pending.creations.push(doc),
    onAbort: (undo) => void pending.onAbort.push(undo),
  };
}

async function abort(pending: Pending): Promise<void> {
  for (const undo of pending.onAbort.splice(0)) {
    try {
      await undo();
    } catch (error) {
      console.error('[site-mcp] undoing an aborted operation failed:', error);
    }
  }
}

/** One workspace file as a lowdb adapter that keeps the text it last read or wrote, to copy from. */
class WorkspaceFile implements Adapter<WorkspaceDoc> {
  text = 'null';
  constructor(readonly path: string) {}

  async read(): Promise<WorkspaceDoc | null> {
    try {
      this.text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return JSON.parse(this.text) as WorkspaceDoc;
  }

  async write(data: WorkspaceDoc): Promise<void> {
    await this.writeText(serializeForCommit(data));
  }

  async writeText(text: string): Promise<void> {
    await writeFileDurably(this.path, text);
    this.text = text;
  }

  /** A private, mutable copy of the committed document. */
  copy(): WorkspaceDoc {
    return JSON.parse(this.text) as WorkspaceDoc;
  }
}

/** The text to commit, or an error that leaves the workspace as it was. */
function serializeForCommit(doc: WorkspaceDoc): string {
  try {
    return JSON.stringify(doc);
  } catch (error) {
    throw new Error(`the workspace document cannot be stored (${(error as Error).message}); nothing was written`);
  }
}

type Entry = { low: Low<WorkspaceDoc>; file: WorkspaceFile };

/** One workspace's writes in a tool call, held (and the workspace locked) until the call's answer is checked. */
interface Stage {
  workspaceId: string;
  entry: Entry;
  /** The document with the call's writes so far, and its text; no draft means nothing written yet. */
  draft: WorkspaceDoc | undefined;
  text: string;
  pending: Pending;
  release: () => void;
}

/** The held writes of one tool call (holdCommits). Closed once the call's function has returned. */
interface HeldCommits {
  open: boolean;
  stages: Map<string, Promise<Stage>>;
  /** Orders the call's own operations on one workspace, as the store's lock orders everyone else's. */
  order: KeyedMutex;
}

/** Seams of the store's commits, installed by a composition (reference/app.ts Composition). */
export interface StoreHooks {
  /**
   * Called before each commit of a workspace with the ids of the workspaces the commit creates, after they are
   * written; a throw fails that commit like a failed disk write would (and removes them again).
   */
  beforeCommit?(workspaceId: string, creates: readonly string[]): void;
}

export class Store {
  readonly dataDir: string;
  #docs = new Map<string, Entry>();
  #loading = new Map<string, Promise<Entry | undefined>>();
  #directory = new Map<string, string | null>();
  #mutex = new KeyedMutex();
  #held = new AsyncLocalStorage<HeldCommits>();

  readonly #hooks: StoreHooks;

  private constructor(dataDir: string, hooks: StoreHooks) {
    this.dataDir = dataDir;
    this.#hooks = hooks;
  }

  /** `hooks` are a seam for a composition (test mode installs fail-next-write); production passes none. */
  static async open(dataDir: string, hooks: StoreHooks = {}): Promise<Store> {
    for (const sub of ['workspaces', 'directory', 'activity']) {
      await mkdir(join(dataDir, sub), { recursive: true });
      // Temporary files of writes a crash interrupted: never renamed, so never committed.
      for (const name of await readdir(join(dataDir, sub))) if (name.endsWith('.tmp')) await rm(join(dataDir, sub, name), { force: true });
    }
    return new Store(dataDir, hooks);
  }

  /** The current document, for reads. Callers must not mutate it: writes go through transact(). */
  async read(workspaceId: string): Promise<WorkspaceDoc | undefined> {
    // A call with held writes reads its own writes.
    const held = this.#held.getStore();
    const stage = held?.open ? await held.stages.get(workspaceId)?.catch(() => undefined) : undefined;
    if (stage?.draft) return stage.draft;
    return (await this.#entry(workspaceId))?.low.data;
  }

  /** Every stored workspace id (test-mode fixtures only: a scan of the store). */
  async workspaceIds(): Promise<string[]> {
    return (await readdir(join(this.dataDir, 'workspaces'))).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
  }

  /** Whether a workspace document exists. */
  async exists(workspaceId: string): Promise<boolean> {
    return (await this.#entry(workspaceId)) !== undefined;
  }

  /**
   * Runs `operation` on a copy of the workspace; commits the copy, and first the lookup entries it added, only
   * if the operation returns normally and the copy can be stored.
   */
  async transact<T>(workspaceId: string, operation: (doc: WorkspaceDoc, tx: Transaction) => T | Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    if (held?.open) return this.#stage(held, workspaceId, operation);
    return this.#mutex.run(workspaceId, async () => {
      const entry = await this.#entry(workspaceId);
      if (!entry) throw new Error(`workspace ${workspaceId} does not exist`);
      const draft = entry.file.copy();
      const pending = nothingPending();
      try {
        const result = await operation(draft, transactionFor(workspaceId, pending));
        await this.#commit(workspaceId, entry, draft, serializeForCommit(draft), pending);
        return result;
      } catch (error) {
        await abort(pending);
        throw error;
      }
    });
  }

  /**
   * Runs `run` with its writes held (rule tool-answer-checked-before-commit): every workspace it writes stays
   * locked, its operations see each other's writes, and nothing is written until `check` accepts the result.
   * A throw from `run` or `check` discards every held write. Writes of more than one workspace are made one
   * after the other (a new company commits with its anchor through Transaction.create instead).
   */
  async holdCommits<T>(run: () => Promise<T>, check: (result: T) => void): Promise<T> {
    const held: HeldCommits = { open: true, stages: new Map(), order: new KeyedMutex() };
    const committed = new Set<Stage>();
    try {
      const result = await this.#held.run(held, run);
      held.open = false;
      check(result);
      for (const stage of await this.#stagesOf(held)) {
        if (!stage.draft) continue;
        await this.#commit(stage.workspaceId, stage.entry, stage.draft, stage.text, stage.pending);
        committed.add(stage);
      }
      return result;
    } finally {
      held.open = false;
      for (const stage of await this.#stagesOf(held)) {
        if (!committed.has(stage)) await abort(stage.pending);
        stage.release();
      }
    }
  }

  /** One operation of a call with held writes: applied to the call's copy of the workspace, not yet written. */
  async #stage<T>(held: HeldCommits, workspaceId: string, operation: (doc: WorkspaceDoc, tx: Transaction) => T | Promise<T>): Promise<T> {
    const stage = await this.#stageFor(held, workspaceId);
    return held.order.run(workspaceId, async () => {
      const draft = JSON.parse(stage.text) as WorkspaceDoc;
      const pending = nothingPending();
      try {
        const result = await operation(draft, transactionFor(workspaceId, pending));
        stage.text = serializeForCommit(draft); // refused now, as the commit would refuse it
        stage.draft = draft;
        stage.pending.lookups.push(...pending.lookups);
        stage.pending.creations.push(...pending.creations);
        stage.pending.onAbort.push(...pending.onAbort);
        return result;
      } catch (error) {
        await abort(pending);
        throw error;
      }
    });
  }

  /** The call's stage of a workspace, locking the workspace on first use until the call ends. */
  #stageFor(held: HeldCommits, workspaceId: string): Promise<Stage> {
    let stage = held.stages.get(workspaceId);
    if (!stage) {
      stage = (async () => {
        const release = await this.#mutex.acquire(workspaceId);
        const entry = await this.#entry(workspaceId).catch((error: unknown) => (release(), Promise.reject(error)));
        if (!entry) {
          release();
          throw new Error(`workspace ${workspaceId} does not exist`);
        }
        return { workspaceId, entry, draft: undefined, text: entry.file.text, pending: nothingPending(), release };
      })();
      held.stages.set(workspaceId, stage);
    }
    return stage;
  }

  async #stagesOf(held: HeldCommits): Promise<Stage[]> {
    const settled = await Promise.allSettled(held.stages.values());
    return settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  /**
   * Writes the documents the operation creates, then its lookup entries, then its document. If anything after
   * the first creation fails, the created documents are removed again, so a failed commit leaves no new
   * workspace behind (rule company-creation-atomic, §7.3).
   */
  async #commit(workspaceId: string, entry: Entry, draft: WorkspaceDoc, text: string, pending: Pending): Promise<void> {
    const created: string[] = [];
    try {
      for (const doc of pending.creations) if (await this.create(doc, [], { ifAbsent: true })) created.push(doc.id);
      this.#hooks.beforeCommit?.(workspaceId, pending.creations.map((doc) => doc.id));
      for (const [kind, key, value] of pending.lookups) await this.setDirectory(kind, key, value);
      await entry.file.writeText(text);
    } catch (error) {
      await this.#removeCreated(created);
      throw error;
    }
    entry.low.data = draft;
  }

  /** Compensates a failed commit: removes the documents it created. A removal that fails is logged, not thrown. */
  async #removeCreated(ids: string[]): Promise<void> {
    for (const id of ids) {
      await this.#mutex.run(id, async () => {
        await rm(this.#file(id).path, { force: true });
        this.#docs.delete(id);
      }).catch((error: unknown) => console.error(`[site-mcp] could not remove ${id} after a failed commit:`, error));
    }
  }

  /**
   * Creates a new workspace document, after the lookup entries that point at it; fails if the id exists.
   * Answers false instead of failing when `ifAbsent` is set and the document exists (an idempotent retry).
   */
  async create(doc: WorkspaceDoc, lookups: [DirectoryKind, string][] = [], options: { ifAbsent?: boolean } = {}): Promise<boolean> {
    return this.#mutex.run(doc.id, async () => {
      if (await this.#entry(doc.id)) {
        if (options.ifAbsent) return false;
        throw new Error(`workspace ${doc.id} exists`);
      }
      const text = serializeForCommit(doc);
      for (const [kind, key] of lookups) await this.setDirectory(kind, key, doc.id);
      const file = this.#file(doc.id);
      await file.writeText(text);
      this.#docs.set(doc.id, { low: new Low<WorkspaceDoc>(file, JSON.parse(text) as WorkspaceDoc), file });
      return true;
    });
  }

  /** Writes one lookup entry durably. Prefer Transaction.index, which orders it before its document. */
  async setDirectory(kind: DirectoryKind, key: string, workspaceId: string): Promise<void> {
    await writeFileDurably(this.#dirFile(kind, key), workspaceId);
    this.#directory.set(`${kind}:${key}`, workspaceId);
  }

  async lookupDirectory(kind: DirectoryKind, key: string): Promise<string | undefined> {
    const cacheKey = `${kind}:${key}`;
    if (this.#directory.has(cacheKey)) return this.#directory.get(cacheKey) ?? undefined;
    let value: string | null = null;
    try {
      value = await readFile(this.#dirFile(kind, key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.#directory.set(cacheKey, value);
    return value ?? undefined;
  }

  #dirFile(kind: DirectoryKind, key: string): string {
    // Keys are ids, hex hashes or emails; encode so any of them is a safe file name.
    return join(this.dataDir, 'directory', `${kind}-${Buffer.from(key).toString('base64url')}`);
  }

  #file(workspaceId: string): WorkspaceFile {
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error('bad workspace id');
    return new WorkspaceFile(join(this.dataDir, 'workspaces', `${workspaceId}.json`));
  }

  async #entry(workspaceId: string): Promise<Entry | undefined> {
    const cached = this.#docs.get(workspaceId);
    if (cached) return cached;
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) return undefined;
    let pending = this.#loading.get(workspaceId);
    if (!pending) {
      pending = (async () => {
        const file = this.#file(workspaceId);
        const low = new Low<WorkspaceDoc>(file, null as unknown as WorkspaceDoc);
        await low.read();
        if (!low.data) return undefined;
        const entry = { low, file };
        this.#docs.set(workspaceId, entry);
        return entry;
      })().finally(() => this.#loading.delete(workspaceId));
      this.#loading.set(workspaceId, pending);
    }
    return pending;
  }
}
