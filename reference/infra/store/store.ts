// The file-backed store. What a document is: a workspace is stored as one lowdb document per site
// (data/workspaces/<id>/sites/<websiteId>.json) plus one workspace document (data/workspaces/<id>/workspace.json:
// the WorkspaceDoc with `sites` replaced by the ids of its sites, in order), beside a directory of tiny files
// that map a website id, a token hash or a user email to its workspace. A write costs what it touches: the
// sites an operation reads are copied, and only documents whose text changed are written, so the cost of an
// edit does not grow with the number of sites in its workspace (bench/store-scale.ts) nor of workspaces.
// reference/infra/store/README.md describes the layout, the commit protocol and the migration from the old layout.
//
// transact() gives all-or-nothing business operations (rule error-business-failure-rolls-back, §7.3):
// - the operation mutates a draft: the workspace document parsed from its committed text, and a `sites` record
//   that hands out a private copy of a site (parsed from its committed text, no structuredClone, whose recursion
//   limit a deep document could exceed) the first time the operation reads it (copy-on-write per site);
// - every changed document is serialized before anything is written, so a document that cannot be stored is
//   refused here and the workspace stays writable (rule tool-arguments-bounded keeps such input out anyway);
// - the changed documents, the lookup entries the operation adds (rule store-lookups-with-document) and the
//   workspaces it creates (rule company-creation-atomic) commit together through journal.ts: one file is
//   replaced atomically; several are written after a durable intent file that Store.open replays, so a crash
//   leaves all of them or none (rule store-durable-commit);
// - only then do reads see the new state, so a failed write is not kept in memory either.
//
// holdCommits() runs a whole tool call with its writes held: each workspace it writes stays locked and is
// written only once the call's answer passed its check, so a call that fails after its last write keeps
// nothing (rule tool-answer-checked-before-commit).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import type { Site, WorkspaceDoc } from '../../domain/model.js';
import { KeyedMutex } from './mutex.js';
import { fsyncDirectory, writeFileDurably } from './durable-file.js';
import { Journal, type BeforeFileWrite, type Intent } from './journal.js';
import { loadLimits } from '../../../spec/index.js';

/** The longest lookup file name kept in its reversible form (a file system allows 255 bytes; the rest is margin). */
const MAX_READABLE_NAME = 200;

export type DirectoryKind = 'site' | 'token' | 'connection' | 'email' | 'user' | 'hostname' | 'delivery' | 'oauth';

/** Lookup entries an operation adds; the store commits them together with the documents that hold their records. */
export interface Transaction {
  index(kind: DirectoryKind, key: string, value?: string): void;
  /**
   * A new workspace document that commits with this one or not at all (rule company-creation-atomic), in the
   * same commit. A document that already exists is adopted, not rewritten.
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

/** The stored workspace document: a WorkspaceDoc whose `sites` are the ids of its site documents, in order. */
type WorkspaceHead = Omit<WorkspaceDoc, 'sites'> & { sites: string[] };

/** One site document: its committed text and the object parsed from (or committed as) it. */
interface SiteDoc {
  readonly text: string;
  readonly site: Site;
}

/**
 * A workspace as committed, or as a held call's writes left it. Never mutated: a write makes a new one that
 * shares every unchanged SiteDoc, so "changed" is "not the same SiteDoc".
 */
interface State {
  readonly text: string;
  readonly head: WorkspaceHead;
  readonly sites: ReadonlyMap<string, SiteDoc>;
  /** What reads see, joined once on first read. */
  view?: WorkspaceDoc;
  /**
   * How this state differs from one whose view was already joined, when its sites keep that one's order (some
   * removed, new ones appended): its view is then a copy of that view's record with these sites changed, instead
   * of a join of every site. Dropped once the view is made, so no chain of old states is kept alive.
   */
  delta?: { base: WorkspaceDoc; changed: string[]; removed: string[] };
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The text to commit, or an error that leaves the workspace as it was. */
/**
 * A document (a site, or a workspace without its sites) larger than spec/limits.json documentMaxBytes: refused before
 * anything is written (rule store-document-size-capped). Every write parses and serializes its documents whole, so
 * one that grew without bound would hold every write of its workspace, and the event loop, longer and longer.
 */
export class DocumentTooLargeError extends Error {
  constructor(readonly bytes: number, readonly maxBytes: number) {
    super(`the document would be ${bytes} bytes, over the ${maxBytes} bytes one may have; nothing was written`);
  }
}

const DOCUMENT_MAX_BYTES = loadLimits().documentMaxBytes.value;

function serializeForCommit(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new Error(`the workspace document cannot be stored (${(error as Error).message}); nothing was written`);
  }
  // Its length in UTF-16 units is at most its UTF-8 bytes' count for ASCII and at least a third of it otherwise:
  // only a text near the cap is measured exactly.
  if (text.length * 3 > DOCUMENT_MAX_BYTES) {
    const bytes = Buffer.byteLength(text);
    if (bytes > DOCUMENT_MAX_BYTES) throw new DocumentTooLargeError(bytes, DOCUMENT_MAX_BYTES);
  }
  return text;
}

function checkSiteId(id: string): void {
  if (!ID.test(id)) throw new Error(`a site id the store cannot name a file by (${JSON.stringify(id).slice(0, 40)}); nothing was written`);
}

function viewOf(state: State): WorkspaceDoc {
  if (state.view) return state.view;
  let sites: Record<string, Site>;
  if (state.delta) {
    // Copying a record wholesale is far cheaper than building it key by key (a 1,000-site workspace).
    sites = Object.assign({}, state.delta.base.sites);
    for (const id of state.delta.removed) delete sites[id];
    for (const id of state.delta.changed) sites[id] = state.sites.get(id)!.site;
    state.delta = undefined;
  } else {
    sites = Object.fromEntries(state.head.sites.map((id) => [id, state.sites.get(id)!.site]));
  }
  state.view = { ...state.head, sites } as WorkspaceDoc;
  return state.view;
}

/** The state of a whole document (a new workspace): a private copy, as a commit would read it back. */
function stateOf(doc: WorkspaceDoc): State {
  const order = Object.keys(doc.sites);
  const sites = new Map<string, SiteDoc>();
  for (const id of order) {
    checkSiteId(id);
    const text = serializeForCommit(doc.sites[id]);
    sites.set(id, { text, site: JSON.parse(text) as Site });
  }
  const text = serializeForCommit({ ...doc, sites: order });
  return { text, head: JSON.parse(text) as WorkspaceHead, sites };
}

/**
 * A draft of `state` for one operation: the workspace document parsed from its text, its `sites` a record that
 * copies a site on first access (copy-on-write per site; a site the operation never reads is never copied).
 * `finish` turns the draft into the next state, reusing every site whose text did not change.
 */
function draftOf(state: State): { doc: WorkspaceDoc; finish(): State } {
  // Nothing here is proportional to the number of sites until the operation adds or removes one: the order is
  // copied on the first such change, and membership is the committed sites plus `added` minus `removed`.
  let order: string[] | undefined;
  const added = new Set<string>();
  const removed = new Set<string>();
  const copies = new Map<string, unknown>();
  const has = (id: string) => added.has(id) || (state.sites.has(id) && !removed.has(id));
  const copyOf = (id: string) => {
    if (!copies.has(id)) copies.set(id, JSON.parse(state.sites.get(id)!.text));
    return copies.get(id);
  };
  const remove = (id: string) => {
    order ??= [...state.head.sites];
    order.splice(order.indexOf(id), 1);
    copies.delete(id);
    if (added.has(id)) added.delete(id);
    else removed.add(id);
  };
  const put = (id: string, value: unknown) => {
    if (value === undefined) {
      // As JSON.stringify would leave it out: the site is gone.
      if (has(id)) remove(id);
      return;
    }
    if (!has(id)) {
      (order ??= [...state.head.sites]).push(id);
      if (removed.has(id)) removed.delete(id);
      else added.add(id);
    }
    copies.set(id, value);
  };
  // The target stays empty: every own property is answered from the sets above, which keep the record's order.
  const sites = new Proxy({} as Record<string, Site>, {
    get: (target, key, receiver) => (typeof key === 'string' && has(key) ? copyOf(key) : Reflect.get(target, key, receiver)),
    set: (target, key, value, receiver) => (typeof key === 'string' ? (put(key, value), true) : Reflect.set(target, key, value, receiver)),
    defineProperty: (target, key, descriptor) => (typeof key === 'string' && 'value' in descriptor ? (put(key, descriptor.value), true) : Reflect.defineProperty(target, key, descriptor)),
    deleteProperty: (target, key) => (typeof key === 'string' && has(key) ? (remove(key), true) : Reflect.deleteProperty(target, key)),
    has: (target, key) => (typeof key === 'string' && has(key)) || Reflect.has(target, key),
    ownKeys: () => [...(order ?? state.head.sites)],
    // Object.keys and Object.hasOwn ask for descriptors: answered without copying (the value is the committed
    // site, or the copy once there is one), so counting or testing sites costs no copy.
    getOwnPropertyDescriptor: (target, key) =>
      typeof key === 'string' && has(key)
        ? { value: copies.has(key) ? copies.get(key) : state.sites.get(key)!.site, writable: true, enumerable: true, configurable: true }
        : Reflect.getOwnPropertyDescriptor(target, key),
  });
  const doc = JSON.parse(state.text) as WorkspaceDoc;
  doc.sites = sites;
  /** The stored form of a site the operation touched: the committed one when its text did not change. */
  const stored = (id: string, value: unknown): SiteDoc => {
    checkSiteId(id);
    const text = serializeForCommit(value);
    const before = state.sites.get(id);
    return before?.text === text ? before : { text, site: value as Site };
  };
  const deltaOf = (changed: string[], removedIds: string[]) => (state.view ? { delta: { base: state.view, changed, removed: removedIds } } : {});
  return {
    doc,
    finish(): State {
      if (doc.sites === sites && !order) {
        // The usual operation: the same sites in the same order, a few of them touched.
        let next: Map<string, SiteDoc> | undefined;
        const changed: string[] = [];
        for (const [id, value] of copies) {
          const site = stored(id, value);
          if (site === state.sites.get(id)) continue;
          (next ??= new Map(state.sites)).set(id, site);
          changed.push(id);
        }
        const head = { ...doc, sites: state.head.sites } as WorkspaceHead;
        const text = serializeForCommit(head);
        if (!next && text === state.text) return state;
        return { text, head: text === state.text ? state.head : head, sites: next ?? state.sites, ...deltaOf(changed, []) };
      }
      // Sites added or removed, or the whole record replaced: every site is accounted for.
      const record = doc.sites as Record<string, unknown>;
      const replaced = doc.sites !== sites;
      const ids = replaced ? Object.keys(record) : order!;
      const touched = replaced ? new Map(Object.entries(record)) : copies;
      const next = new Map<string, SiteDoc>();
      const kept: string[] = [];
      const changed: string[] = [];
      for (const id of ids) {
        if (!touched.has(id)) {
          next.set(id, state.sites.get(id)!);
        } else {
          const value = touched.get(id);
          if (value === undefined) continue; // as JSON.stringify would leave it out
          const site = stored(id, value);
          next.set(id, site);
          if (site !== state.sites.get(id)) changed.push(id);
        }
        kept.push(id);
      }
      const removedIds = state.head.sites.filter((id) => !next.has(id));
      const head = { ...doc, sites: kept } as WorkspaceHead;
      const text = serializeForCommit(head);
      return { text, head, sites: next, ...(keepsOrder(state.head.sites, kept, next, state.sites) ? deltaOf(changed, removedIds) : {}) };
    },
  };
}

/** Whether `kept` is `before` without the sites removed, followed by new sites only (the order a record copy keeps). */
function keepsOrder(before: readonly string[], kept: readonly string[], next: ReadonlyMap<string, SiteDoc>, previous: ReadonlyMap<string, SiteDoc>): boolean {
  let i = 0;
  for (const id of before) if (next.has(id) && kept[i++] !== id) return false;
  for (; i < kept.length; i++) if (previous.has(kept[i]!)) return false;
  return true;
}

/** One stored document file read through lowdb, keeping the text it read. */
class DocumentFile<T> implements Adapter<T> {
  text = '';
  constructor(readonly path: string) {}

  async read(): Promise<T | null> {
    try {
      this.text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return JSON.parse(this.text) as T;
  }

  async write(data: T): Promise<void> {
    const text = serializeForCommit(data);
    await writeFileDurably(this.path, text);
    this.text = text;
  }
}

async function readDocument<T>(path: string): Promise<{ text: string; data: T } | undefined> {
  const file = new DocumentFile<T>(path);
  const low = new Low<T | null>(file as Adapter<T | null>, null);
  await low.read();
  return low.data === null ? undefined : { text: file.text, data: low.data };
}

interface Workspace {
  readonly id: string;
  state: State;
}

/** One workspace's writes in a tool call, held (and the workspace locked) until the call's answer is checked. */
interface Stage {
  workspace: Workspace;
  /** The state with the call's writes so far; `written` false means nothing written yet. */
  state: State;
  written: boolean;
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

/** A commit whose intent is durable but whose files were not all written (a disk error after the commit point). */
interface Unapplied {
  workspaces: ReadonlySet<string>;
  retry: () => Promise<void>;
  running?: Promise<void>;
}

/** Seams of the store's commits, installed by a composition (reference/app.ts Composition). */
export interface StoreHooks {
  /**
   * Called before each commit of a workspace, before anything is written, with the ids of the workspaces the
   * commit creates; a throw fails that commit like a failed disk write would (nothing of it is written).
   */
  beforeCommit?(workspaceId: string, creates: readonly string[]): void;
  /**
   * Called before each file a commit writes or removes, with its path in the data directory; a throw fails that
   * write as a disk error would. The store's own tests use it to stop a commit at every step, as a crash would.
   */
  beforeFileWrite?: BeforeFileWrite;
}

export class Store {
  readonly dataDir: string;
  #workspaces = new Map<string, Workspace>();
  #loading = new Map<string, Promise<Workspace | undefined>>();
  /** Lookup entries the store wrote or found (bounded by what is stored), and ones it wrote as removed (null). */
  #directory = new Map<string, string | null>();
  /**
   * Lookups that found nothing, least recently missed first: keyed by whatever a caller asks for (a random site
   * id, an unknown token), so bounded by spec/limits.json memory.directoryMisses (rule
   * memory-caller-keyed-maps-bounded); a miss pushed out is read from disk again next time.
   */
  #misses = new Set<string>();
  readonly #maxMisses: number;
  #mutex = new KeyedMutex();
  #held = new AsyncLocalStorage<HeldCommits>();
  #unapplied = new Set<Unapplied>();
  readonly #journal: Journal;
  readonly #hooks: StoreHooks;

  private constructor(dataDir: string, hooks: StoreHooks, maxCachedMisses: number) {
    this.dataDir = dataDir;
    this.#maxMisses = maxCachedMisses;
    this.#hooks = hooks;
    this.#journal = new Journal(dataDir, hooks.beforeFileWrite);
  }

  /**
   * Opens a data directory: removes what crashes left half-made (temporary files, an unfinished migration),
   * converts workspace files of the old one-document layout (reference/infra/store/README.md), then replays every
   * commit whose intent is durable, before anything is read. `hooks` are a seam for a composition (test mode
   * installs fail-next-write); production passes none.
   */
  static async open(dataDir: string, hooks: StoreHooks = {}, { maxCachedMisses = loadLimits().memory.directoryMisses }: { maxCachedMisses?: number } = {}): Promise<Store> {
    for (const sub of ['workspaces', 'directory', 'activity', 'journal', 'tmp']) {
      await mkdir(join(dataDir, sub), { recursive: true });
      // Temporary files of writes a crash interrupted (data/tmp holds the store's; the other folders those of
      // the old layout and of lookup entries): never renamed, so never committed. Likewise an unfinished migration.
      for (const name of await readdir(join(dataDir, sub))) {
        if (sub === 'tmp' || name.endsWith('.tmp') || name.endsWith('.migrating')) await rm(join(dataDir, sub, name), { recursive: true, force: true });
      }
    }
    const store = new Store(dataDir, hooks, maxCachedMisses);
    await store.#migrateOldLayout();
    await store.#journal.replay();
    return store;
  }

  /** The current document, for reads. Callers must not mutate it: writes go through transact(). */
  async read(workspaceId: string): Promise<WorkspaceDoc | undefined> {
    // A call with held writes reads its own writes.
    const held = this.#held.getStore();
    const stage = held?.open ? await held.stages.get(workspaceId)?.catch(() => undefined) : undefined;
    if (stage?.written) return viewOf(stage.state);
    const workspace = await this.#workspace(workspaceId);
    return workspace && viewOf(workspace.state);
  }

  /** Every stored workspace id (test-mode fixtures only: a scan of the store). */
  async workspaceIds(): Promise<string[]> {
    const onDisk = (await readdir(join(this.dataDir, 'workspaces'), { withFileTypes: true })).filter((e) => e.isDirectory() && ID.test(e.name)).map((e) => e.name);
    return [...new Set([...onDisk, ...this.#workspaces.keys()])];
  }

  /** Whether a workspace document exists. */
  async exists(workspaceId: string): Promise<boolean> {
    return (await this.#workspace(workspaceId)) !== undefined;
  }

  /**
   * Runs `operation` on a draft of the workspace; commits the documents it changed, with the lookup entries it
   * added and the workspaces it created, only if the operation returns normally and every document can be stored.
   */
  async transact<T>(workspaceId: string, operation: (doc: WorkspaceDoc, tx: Transaction) => T | Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    if (held?.open) return this.#stage(held, workspaceId, operation);
    return this.#mutex.run(workspaceId, async () => {
      const workspace = await this.#workspace(workspaceId);
      if (!workspace) throw new Error(`workspace ${workspaceId} does not exist`);
      const pending = nothingPending();
      try {
        const draft = draftOf(workspace.state);
        const result = await operation(draft.doc, transactionFor(workspaceId, pending));
        await this.#commit(workspace, draft.finish(), pending);
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
        if (!stage.written) continue;
        await this.#commit(stage.workspace, stage.state, stage.pending);
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

  /** One operation of a call with held writes: applied to the call's state of the workspace, not yet written. */
  async #stage<T>(held: HeldCommits, workspaceId: string, operation: (doc: WorkspaceDoc, tx: Transaction) => T | Promise<T>): Promise<T> {
    const stage = await this.#stageFor(held, workspaceId);
    return held.order.run(workspaceId, async () => {
      const pending = nothingPending();
      try {
        const draft = draftOf(stage.state);
        const result = await operation(draft.doc, transactionFor(workspaceId, pending));
        stage.state = draft.finish(); // refused now, as the commit would refuse it
        stage.written = true;
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
        const workspace = await this.#workspace(workspaceId).catch((error: unknown) => (release(), Promise.reject(error)));
        if (!workspace) {
          release();
          throw new Error(`workspace ${workspaceId} does not exist`);
        }
        return { workspace, state: workspace.state, written: false, pending: nothingPending(), release };
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
   * Commits `next` as the state of `workspace`, with the operation's lookup entries and new workspaces, all in
   * one commit (journal.ts); reads see it only once that commit is durable. A failure before the commit point
   * keeps nothing, in memory or on disk (rules store-durable-commit, company-creation-atomic).
   */
  async #commit(workspace: Workspace, next: State, pending: Pending): Promise<void> {
    const created: Workspace[] = [];
    for (const doc of pending.creations) {
      if (created.some((c) => c.id === doc.id) || (await this.#workspace(doc.id))) continue; // adopted
      if (!ID.test(doc.id)) throw new Error('bad workspace id');
      created.push({ id: doc.id, state: stateOf(doc) });
    }
    this.#hooks.beforeCommit?.(workspace.id, pending.creations.map((doc) => doc.id));
    const intent: Intent = { writes: [], removes: [] };
    for (const [kind, key, value] of pending.lookups) intent.writes.push({ path: this.#dirPath(kind, key), text: value });
    for (const c of created) filesOf(c.id, undefined, c.state, intent);
    filesOf(workspace.id, workspace.state, next, intent);
    await this.#settle([workspace.id, ...created.map((c) => c.id)]);
    const { applied, retry } = await this.#journal.commit(intent);
    // Committed: durable from here on (replayed at the next open if the files are not all written now).
    workspace.state = next;
    for (const c of created) this.#workspaces.set(c.id, c);
    for (const [kind, key, value] of pending.lookups) this.#cacheLookup(`${kind}:${key}`, value);
    await applied.catch((error: unknown) => this.#keepUnapplied([workspace.id, ...created.map((c) => c.id)], retry, error));
  }

  /** A commit whose files failed after its intent was durable: applied again before the next write of its workspaces. */
  #keepUnapplied(workspaces: string[], retry: () => Promise<void>, error: unknown): void {
    console.error('[site-mcp] a committed write is not fully on disk yet; its journal entry is applied before the next write of', workspaces.join(', '), error);
    this.#unapplied.add({ workspaces: new Set(workspaces), retry });
  }

  /** Applies the unapplied commits of these workspaces first: a later write must never be overwritten by a replay. */
  async #settle(workspaceIds: string[]): Promise<void> {
    for (const unapplied of this.#unapplied) {
      if (!workspaceIds.some((id) => unapplied.workspaces.has(id))) continue;
      unapplied.running ??= unapplied.retry().finally(() => (unapplied.running = undefined));
      await unapplied.running;
      this.#unapplied.delete(unapplied);
    }
  }

  /**
   * Creates a new workspace document with the lookup entries that point at it, in one commit; fails if the id
   * exists. Answers false instead of failing when `ifAbsent` is set and the document exists (an idempotent retry).
   */
  async create(doc: WorkspaceDoc, lookups: [DirectoryKind, string][] = [], options: { ifAbsent?: boolean } = {}): Promise<boolean> {
    if (!ID.test(doc.id)) throw new Error('bad workspace id');
    return this.#mutex.run(doc.id, async () => {
      if (await this.#workspace(doc.id)) {
        if (options.ifAbsent) return false;
        throw new Error(`workspace ${doc.id} exists`);
      }
      const workspace: Workspace = { id: doc.id, state: stateOf(doc) };
      const intent: Intent = { writes: lookups.map(([kind, key]) => ({ path: this.#dirPath(kind, key), text: doc.id })), removes: [] };
      filesOf(doc.id, undefined, workspace.state, intent);
      await this.#settle([doc.id]);
      const { applied, retry } = await this.#journal.commit(intent);
      this.#workspaces.set(doc.id, workspace);
      for (const [kind, key] of lookups) this.#cacheLookup(`${kind}:${key}`, doc.id);
      await applied.catch((error: unknown) => this.#keepUnapplied([doc.id], retry, error));
      return true;
    });
  }

  /** Writes one lookup entry durably. Prefer Transaction.index, which commits it with its document. */
  async setDirectory(kind: DirectoryKind, key: string, workspaceId: string): Promise<void> {
    await writeFileDurably(join(this.dataDir, this.#dirPath(kind, key)), workspaceId, { tempDir: join(this.dataDir, 'tmp') });
    this.#cacheLookup(`${kind}:${key}`, workspaceId);
  }

  #cacheLookup(cacheKey: string, value: string | null): void {
    this.#misses.delete(cacheKey);
    this.#directory.set(cacheKey, value);
  }

  /** How many lookups that found nothing are remembered (tests). */
  get cachedMisses(): number {
    return this.#misses.size;
  }

  async lookupDirectory(kind: DirectoryKind, key: string): Promise<string | undefined> {
    const cacheKey = `${kind}:${key}`;
    if (this.#directory.has(cacheKey)) return this.#directory.get(cacheKey) ?? undefined;
    if (this.#misses.has(cacheKey)) return undefined;
    let value: string | null = null;
    try {
      value = await readFile(join(this.dataDir, this.#dirPath(kind, key)), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // A write may have cached the entry while the file was read: the write's value wins.
    if (this.#directory.has(cacheKey)) return this.#directory.get(cacheKey) ?? undefined;
    if (value !== null) this.#directory.set(cacheKey, value);
    else {
      this.#misses.add(cacheKey);
      for (const oldest of this.#misses) {
        if (this.#misses.size <= this.#maxMisses) break;
        this.#misses.delete(oldest);
      }
    }
    return value ?? undefined;
  }

  #dirPath(kind: DirectoryKind, key: string): string {
    // Keys are ids, hex hashes or emails, some of them a caller's string of any length; encode so any of them is a
    // safe file name. A name past the file system's 255 bytes fails every lookup with ENAMETOOLONG (a 500 for a
    // sign-in or a public page), so a long key is named by its SHA-256 instead (rule
    // store-lookup-names-bounded). '.' is not of the base64url alphabet: the two forms never name the same file,
    // and names already stored (all short: a long one could never be written) keep their form.
    const encoded = Buffer.from(key).toString('base64url');
    if (kind.length + 1 + encoded.length <= MAX_READABLE_NAME) return join('directory', `${kind}-${encoded}`);
    return join('directory', `${kind}.${createHash('sha256').update(key).digest('base64url')}`);
  }

  async #workspace(workspaceId: string): Promise<Workspace | undefined> {
    const cached = this.#workspaces.get(workspaceId);
    if (cached) return cached;
    if (!ID.test(workspaceId)) return undefined;
    let loading = this.#loading.get(workspaceId);
    if (!loading) {
      loading = this.#load(workspaceId)
        .then((workspace) => {
          // A commit that created it while it loaded wins: it is at least as new.
          if (workspace && !this.#workspaces.has(workspaceId)) this.#workspaces.set(workspaceId, workspace);
          return this.#workspaces.get(workspaceId);
        })
        .finally(() => this.#loading.delete(workspaceId));
      this.#loading.set(workspaceId, loading);
    }
    return loading;
  }

  /** Reads a workspace's documents: its workspace document, then each site document it lists. */
  async #load(workspaceId: string): Promise<Workspace | undefined> {
    const dir = join(this.dataDir, 'workspaces', workspaceId);
    const head = await readDocument<WorkspaceHead>(join(dir, 'workspace.json'));
    if (!head) return undefined;
    const ids = head.data.sites;
    const texts = new Array<{ text: string; data: Site } | undefined>(ids.length);
    // A few reads at a time: a 1,000-site workspace loads in one pass without a thousand open files.
    for (let start = 0; start < ids.length; start += 32) {
      await Promise.all(ids.slice(start, start + 32).map(async (id, i) => (texts[start + i] = await readDocument<Site>(join(dir, 'sites', `${id}.json`)))));
    }
    const sites = new Map<string, SiteDoc>();
    ids.forEach((id, i) => {
      const doc = texts[i];
      if (!doc) throw new Error(`workspace ${workspaceId} lists site ${id}, whose document is missing`);
      sites.set(id, { text: doc.text, site: doc.data });
    });
    return { id: workspaceId, state: { text: head.text, head: head.data, sites } };
  }

  /**
   * Converts the old layout (one document per workspace, data/workspaces/<id>.json) into the new one: the
   * workspace's documents are written to <id>.migrating/, which is renamed to <id>/ once complete, and only then
   * is the old file removed. A crash at any step leaves the old file (a .migrating directory is removed and the
   * migration redone at the next open) or the new directory (an old file beside it is removed).
   */
  async #migrateOldLayout(): Promise<void> {
    const root = join(this.dataDir, 'workspaces');
    for (const entry of await readdir(root, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      const id = entry.name.slice(0, -'.json'.length);
      const old = join(root, entry.name);
      if (!ID.test(id)) continue;
      const done = await readDocument<WorkspaceHead>(join(root, id, 'workspace.json'));
      if (!done) {
        const doc = JSON.parse(await readFile(old, 'utf8')) as WorkspaceDoc;
        const state = stateOf(doc);
        const staging = join(root, `${id}.migrating`);
        await rm(staging, { recursive: true, force: true });
        await mkdir(join(staging, 'sites'), { recursive: true });
        for (const siteId of state.head.sites) await writeFileDurably(join(staging, 'sites', `${siteId}.json`), state.sites.get(siteId)!.text, { syncDirectory: false });
        await fsyncDirectory(join(staging, 'sites'));
        await writeFileDurably(join(staging, 'workspace.json'), state.text);
        await rm(join(root, id), { recursive: true, force: true }); // a directory without its workspace document is not a workspace
        await rename(staging, join(root, id));
        await fsyncDirectory(root);
      }
      await rm(old, { force: true });
      await fsyncDirectory(root);
      console.log(`[site-mcp] workspace ${id} converted to one document per site (data/workspaces/${id}/)`);
    }
  }
}

/** Adds to `intent` the files that make `next` of what `before` was: changed sites first, then the workspace document. */
function filesOf(workspaceId: string, before: State | undefined, next: State, intent: Intent): void {
  const dir = join('workspaces', workspaceId);
  for (const [id, site] of next.sites) if (before?.sites.get(id) !== site) intent.writes.push({ path: join(dir, 'sites', `${id}.json`), text: site.text });
  if (before?.text !== next.text) intent.writes.push({ path: join(dir, 'workspace.json'), text: next.text });
  for (const id of before?.sites.keys() ?? []) if (!next.sites.has(id)) intent.removes.push(join(dir, 'sites', `${id}.json`));
}
