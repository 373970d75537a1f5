// Activity log (§2.7): one PII-free line per call, appended to a per-workspace, per-day JSONL file, so an
// entry costs one small append and never a rewrite of a growing document. Entries older than the retention
// window (90 days by the workspace's clock) are never returned and their day files are deleted.
//
// Durability (rules activity-entry-every-call, store-durable-commit): an append resolves only after an fdatasync
// that covers its line, and callers await it before answering. Two things keep that cheap under load:
// a workspace's day file stays open (closed when its day passes, when it is pruned, when too many are open, and on
// server stop) instead of being opened and closed for every batch; and appends group-commit: every line queued
// while a file's previous write and fdatasync ran goes out in the next single write and fdatasync.
//
// A failing disk (decision activity-log-fails-closed): a batch whose write or sync fails is retried after cutting
// the file back to what was durable, so no entry is written twice; lines that still fail stay in memory as the
// file's backlog, written before anything else of that file; while a workspace has a backlog, the call path tries
// it again (`recover`) before each call and refuses the call if it still cannot be written.
//
// A flood (decision activity-refusals-folded): a connection's rate-limited refusals after its first one in a
// period are counted in memory (`appendRefused`) and written as one entry carrying the count, so refused calls cost a
// few lines a period whatever their rate. Reading (decision activity-read-newest-first): `readPage` walks the day
// files backwards from the newest, a chunk at a time, and stops at a page's entries or its byte budget, so what the
// Developers settings cost does not grow with the log.
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ActivityEntry as ActivityLine } from '../../../generated/schemas/fixtures/fixtures.js';
import { fsyncDirectory } from './durable-file.js';

/**
 * One stored entry: the fixtures protocol's ActivityEntry (spec/schemas/fixtures), with its workspace and website
 * always set. `summary` is PII-free: names of things (record type, field names, counts), never values (rule
 * activity-pii-free).
 */
export type ActivityEntry = ActivityLine & Required<Pick<ActivityLine, 'workspaceId' | 'websiteId'>>;

/** What the log needs of an open day file (a subset of node's FileHandle). */
export interface DayFileHandle {
  writeFile(text: string, encoding: 'utf8'): Promise<void>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** The file system calls the log makes to write: node's, or a test's wrapper that counts or fails them. */
export interface ActivityFs {
  /** Opens `path` for appending and reading (its last byte is looked at), creating it (not its directory) if missing. */
  open(path: string): Promise<DayFileHandle>;
  syncDirectory(dir: string): Promise<void>;
}

const nodeFs: ActivityFs = { open: (path) => open(path, 'a+'), syncDirectory: fsyncDirectory };

const DAY_MS = 86_400_000;
/** Day files kept open at once; past it the idle one opened longest ago is closed (it reopens on demand). */
const MAX_OPEN_FILES = 128;
/** Pauses before the second and third attempt at a batch; a third failure leaves its lines in the backlog. */
const RETRY_DELAYS_MS = [20, 200];
/** Backlog lines kept per day file while its disk fails; past it the oldest go to stderr (the server log) instead. */
const MAX_BACKLOG_LINES = 10_000;
/** Bytes read at a time when walking a day file backwards. */
const READ_CHUNK_BYTES = 65_536;

/** A page of entries, newest first, and where the next older page continues (null: nothing older within retention). */
export interface ActivityPage {
  entries: ActivityEntry[];
  older: string | null;
  /** Bytes of day files read to make this page. */
  scannedBytes: number;
}

/** What one page may show and read (spec/limits.json activityLog). */
export interface PageBounds {
  pageEntries: number;
  pageScanBytes: number;
  maxLineBytes: number;
}

/** A connection's rate-limited refusals being counted (decision activity-refusals-folded). */
interface Fold {
  startMs: number;
  untilMs: number;
  /** Refusals counted and not yet written, the first one's time, and the last one's entry (its time, name, website). */
  count: number;
  firstAt: string;
  last: ActivityEntry | null;
  timer: NodeJS.Timeout;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** One day file of one workspace: its open handle, the lines waiting for the next write, and its writer. */
interface DayFile {
  path: string;
  workspaceId: string;
  handle: DayFileHandle | null;
  /** A newline to write first: the file ends in the torn tail of an append a crash cut short. */
  needsNewline: boolean;
  /** Bytes of the file known to be on disk: its size when opened plus every batch synced since; null until opened. */
  durable: number | null;
  /** Lines of batches that failed every attempt, written first by the next batch (decision activity-log-fails-closed). */
  backlog: string[];
  lines: string[];
  waiters: Waiter[];
  /** The writer draining `lines`, while one runs; it never rejects (each batch's waiters get its error). */
  writing: Promise<void> | null;
}

export class ActivityLog {
  #dir: string;
  #retentionDays: number;
  #fs: ActivityFs;
  #files = new Map<string, DayFile>();
  /** Each workspace's current day file: a file it no longer writes to is closed once idle. */
  #current = new Map<string, string>();
  /** The day files of a workspace that hold a backlog. */
  #failing = new Map<string, Set<DayFile>>();
  /** Refusals being counted, by workspace and connection; each ends when its period does. */
  #folds = new Map<string, Fold>();
  /** The time of each connection's newest entry written by this process (its "last used", without a read). */
  #lastAt = new Map<string, string>();

  constructor(dataDir: string, retentionDays: number, fs: ActivityFs = nodeFs) {
    this.#dir = join(dataDir, 'activity');
    this.#retentionDays = retentionDays;
    this.#fs = fs;
  }

  /**
   * Queues the entry and resolves once an fdatasync covering it has returned; rejects if the write or the sync of
   * its batch failed (then none of that batch is acknowledged, and the file is reopened for the next one). Callers
   * await it before answering, so an answered call's entry survives a crash (rule activity-entry-every-call).
   */
  append(entry: ActivityEntry): Promise<void> {
    const path = join(this.#dir, entry.workspaceId, `${entry.at.slice(0, 10)}.jsonl`);
    let file = this.#files.get(path);
    if (!file) {
      file = { path, workspaceId: entry.workspaceId, handle: null, needsNewline: false, durable: null, backlog: [], lines: [], waiters: [], writing: null };
      this.#files.set(path, file);
    }
    const previous = this.#current.get(entry.workspaceId);
    if (previous !== path) {
      this.#current.set(entry.workspaceId, path);
      // The workspace's day changed: its previous day file is closed once its last batch is on disk.
      const old = previous === undefined ? undefined : this.#files.get(previous);
      if (old && !old.writing) void this.#close(old);
      // And its day files past retention go now, read or not (rule activity-retention-90-days): a log nobody opens
      // is pruned once a day it is written to, and at its first entry after a start.
      this.#prune(entry.workspaceId, new Date(entry.at)).catch((error) => console.error('[site-mcp] activity: day files past retention not yet removed (tried again on the next day or read):', error));
    }
    if ((this.#lastAt.get(entry.connectionId) ?? '') < entry.at) this.#lastAt.set(entry.connectionId, entry.at);
    const done = new Promise<void>((resolve, reject) => file.waiters.push({ resolve, reject }));
    file.lines.push(`${JSON.stringify(entry)}\n`);
    file.writing ??= this.#drain(file);
    // Another day file of this workspace with a backlog gets another try too: its entries come before this one's.
    const failing = this.#failing.get(entry.workspaceId);
    if (failing) for (const other of failing) other.writing ??= this.#drain(other);
    return done;
  }

  /**
   * The entry of a call refused by a rate limit (decision activity-refusals-folded): the connection's first refusal
   * of a period of `foldMs` is appended like any entry (and awaited); the refusals after it in the period are only
   * counted, and resolve at once. The count is written as one entry (`count`, the last refusal's time and name) when
   * the period ends, when the workspace's activity is read, or on close. `nowMs` is the call's time.
   */
  appendRefused(entry: ActivityEntry, nowMs: number, foldMs: number): Promise<void> {
    const key = `${entry.workspaceId}/${entry.connectionId}`;
    const fold = this.#folds.get(key);
    if (fold && nowMs >= fold.startMs && nowMs < fold.untilMs) {
      if (fold.count === 0) fold.firstAt = entry.at;
      fold.count++;
      fold.last = entry;
      return Promise.resolve();
    }
    if (fold) this.#endFold(key);
    const timer = setTimeout(() => this.#endFold(key), foldMs);
    timer.unref();
    this.#folds.set(key, { startMs: nowMs, untilMs: nowMs + foldMs, count: 0, firstAt: entry.at, last: null, timer });
    return this.append(entry);
  }

  /** Ends a period of counted refusals, writing what it counted. */
  #endFold(key: string): Promise<void> | undefined {
    const fold = this.#folds.get(key);
    if (!fold) return undefined;
    clearTimeout(fold.timer);
    this.#folds.delete(key);
    return this.#writeFold(fold);
  }

  /** Writes the refusals a period counted so far as one entry (one refusal: its own entry), and starts counting anew. */
  #writeFold(fold: Fold): Promise<void> | undefined {
    const { count, firstAt, last } = fold;
    if (!count || !last) return undefined;
    fold.count = 0;
    fold.last = null;
    const entry: ActivityEntry =
      count === 1 ? last : { ...last, count, summary: `${count} calls refused with ${last.code ?? 'rate_limited'} from ${firstAt} to ${last.at}, counted in this one entry` };
    // A failed append keeps the entry in the file's backlog (decision activity-log-fails-closed).
    return this.append(entry).catch((error) => console.error('[site-mcp] activity: a count of refused calls not yet written (kept to retry):', error));
  }

  /** Writes the counts of the workspace's refusals so far, so a read sees every refused call. */
  async #writeFolds(workspaceId: string): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [key, fold] of this.#folds) {
      if (!key.startsWith(`${workspaceId}/`)) continue;
      const written = this.#writeFold(fold);
      if (written) writes.push(written);
    }
    await Promise.all(writes);
  }

  /**
   * True while entries of the workspace could not be written (decision activity-log-fails-closed): the call path
   * then refuses the workspace's calls before they run, since their entries could not be kept either.
   */
  isFailing(workspaceId: string): boolean {
    return this.#failing.has(workspaceId);
  }

  /** Tries the workspace's backlog again now; true once none of it is left unwritten. */
  async recover(workspaceId: string): Promise<boolean> {
    const failing = this.#failing.get(workspaceId);
    if (!failing) return true;
    await Promise.all([...failing].map((f) => (f.writing ??= this.#drain(f))));
    return !this.#failing.has(workspaceId);
  }

  /** Writes the file's backlog and queued lines, a batch at a time, until none is left or a batch failed. */
  async #drain(file: DayFile): Promise<void> {
    // Entries that arrive in the same turn of the event loop join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    let failed = false;
    while (file.lines.length || (file.backlog.length && !failed)) {
      const batch = file.backlog.length ? [...file.backlog, ...file.lines] : file.lines;
      const waiters = file.waiters;
      file.lines = [];
      file.waiters = [];
      try {
        await this.#writeDurably(file, batch.join(''));
        if (file.backlog.length) this.#setBacklog(file, []);
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        failed = true;
        console.error(`[site-mcp] activity log: ${batch.length} entries of ${file.path} could not be written; kept to retry, the workspace's calls refused meanwhile:`, error);
        this.#setBacklog(file, batch);
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    file.writing = null;
    if (this.#current.get(file.workspaceId) !== file.path) await this.#close(file);
  }

  /** One batch, written and fdatasynced, with up to RETRY_DELAYS_MS.length retries on a fresh handle. */
  async #writeDurably(file: DayFile, text: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await this.#handle(file);
        const out = file.needsNewline ? `\n${text}` : text;
        await handle.writeFile(out, 'utf8');
        await handle.datasync();
        file.needsNewline = false;
        file.durable = (file.durable ?? 0) + Buffer.byteLength(out);
        return;
      } catch (error) {
        // What the failed attempt left is unknown (part of the batch, all of it unsynced): the next attempt reopens
        // the file and cuts it back to `durable` rather than trusting this handle (#handle).
        await this.#closeHandle(file);
        const pause = RETRY_DELAYS_MS[attempt];
        if (pause === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** Sets the file's backlog, bounded, and whether its workspace counts as failing. */
  #setBacklog(file: DayFile, lines: string[]): void {
    if (lines.length > MAX_BACKLOG_LINES) {
      const dropped = lines.splice(0, lines.length - MAX_BACKLOG_LINES);
      console.error(`[site-mcp] activity log: backlog of ${file.path} full; these entries are only here:\n${dropped.join('')}`);
    }
    file.backlog = lines;
    let failing = this.#failing.get(file.workspaceId);
    if (lines.length) {
      if (!failing) this.#failing.set(file.workspaceId, (failing = new Set()));
      failing.add(file);
    } else if (failing) {
      failing.delete(file);
      if (!failing.size) this.#failing.delete(file.workspaceId);
    }
  }

  /** The file's open handle, opening (and if need be creating, durably) the day file. */
  async #handle(file: DayFile): Promise<DayFileHandle> {
    if (file.handle) return file.handle;
    const dir = dirname(file.path);
    let handle: DayFileHandle;
    try {
      handle = await this.#fs.open(file.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const created = await mkdir(dir, { recursive: true });
      // The new directories' entries must survive a crash too: sync each one's parent, outermost first.
      if (created) {
        for (let d = created; ; d = join(d, relative(d, dir).split(sep)[0]!)) {
          await this.#fs.syncDirectory(dirname(d));
          if (d === dir) break;
        }
      }
      handle = await this.#fs.open(file.path);
    }
    try {
      let { size } = await handle.stat();
      // A failed batch left bytes past what was synced: cut them, the batch is written again whole (no entry twice).
      if (file.durable !== null && size > file.durable) {
        await handle.truncate(file.durable);
        size = file.durable;
      }
      file.durable = size;
      if (size === 0) {
        await this.#fs.syncDirectory(dir); // a file just created: its directory entry is part of what is durable
      } else {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        file.needsNewline = last[0] !== 0x0a;
      }
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    file.handle = handle;
    this.#limitOpenFiles(file);
    return handle;
  }

  /** Keeps at most MAX_OPEN_FILES handles open, closing idle ones opened longest ago (`keep` is being written). */
  #limitOpenFiles(keep: DayFile): void {
    // The map's order is the order of opening: move this one to the end.
    this.#files.delete(keep.path);
    this.#files.set(keep.path, keep);
    let open = 0;
    for (const f of this.#files.values()) if (f.handle) open++;
    for (const f of this.#files.values()) {
      if (open <= MAX_OPEN_FILES) break;
      if (f !== keep && f.handle && !f.writing) {
        void this.#close(f);
        open--;
      }
    }
  }

  async #closeHandle(file: DayFile): Promise<void> {
    const handle = file.handle;
    file.handle = null;
    await handle?.close().catch((error) => console.error('[site-mcp] closing an activity day file failed:', error));
  }

  /**
   * Forgets an idle day file and closes its handle; a later append to it opens it again. A file with a backlog is
   * kept (only its handle closed) unless `dropBacklog`: its lines wait for the next try.
   */
  async #close(file: DayFile, dropBacklog = false): Promise<void> {
    if (file.backlog.length && !dropBacklog) return this.#closeHandle(file);
    if (file.backlog.length) this.#setBacklog(file, []);
    if (this.#files.get(file.path) === file) this.#files.delete(file.path);
    await this.#closeHandle(file);
  }

  /** Resolves when every entry queued so far is on disk (or its batch has failed). */
  async flush(): Promise<void> {
    await Promise.all([...this.#files.values()].map((f) => f.writing));
  }

  /** Server stop: writes the counts of refused calls, waits for queued entries, then closes every day file; a backlog left goes to stderr. */
  async close(): Promise<void> {
    await Promise.all([...this.#folds.keys()].map((key) => this.#endFold(key)));
    await this.flush();
    for (const f of this.#files.values()) {
      if (f.backlog.length) console.error(`[site-mcp] activity log: stopping with ${f.backlog.length} entries of ${f.path} unwritten; they are only here:\n${f.backlog.join('')}`);
    }
    await Promise.all([...this.#files.values()].map((f) => (f.writing ? f.writing.then(() => this.#close(f, true)) : this.#close(f, true))));
    this.#current.clear();
  }

  /** Entries of one workspace (optionally one connection) within retention at `now`, oldest first. */
  /**
   * The workspace's day files within retention at `now`, oldest first, after deleting those past it (rule
   * activity-retention-90-days); refusals counted so far are written first, and everything queued is on disk.
   */
  async #dayFiles(workspaceId: string, now: Date): Promise<{ dir: string; files: string[]; cutoff: string }> {
    await this.#writeFolds(workspaceId);
    await this.flush();
    return this.#prune(workspaceId, now);
  }

  /** Deletes the workspace's day files past retention at `now`; answers the rest, oldest first. */
  async #prune(workspaceId: string, now: Date): Promise<{ dir: string; files: string[]; cutoff: string }> {
    const dir = join(this.#dir, workspaceId);
    const cutoff = new Date(now.getTime() - this.#retentionDays * DAY_MS).toISOString();
    let names: string[];
    try {
      names = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { dir, files: [], cutoff };
      throw error;
    }
    const files: string[] = [];
    for (const name of names) {
      const path = join(dir, name);
      // A day file wholly before the cutoff day is past retention: delete it, closing it first if it is still open.
      if (`${name.slice(0, 10)}T23:59:59.999Z` < cutoff) {
        const open = this.#files.get(path);
        if (open) {
          while (open.writing) await open.writing;
          await this.#close(open, true); // past retention: its backlog would be pruned at once anyway
          if (this.#current.get(workspaceId) === path) this.#current.delete(workspaceId);
        }
        await rm(path, { force: true });
        continue;
      }
      files.push(name);
    }
    return { dir, files, cutoff };
  }

  /**
   * Entries of one workspace (optionally one connection) within retention at `now`, oldest first: the whole log,
   * for the fixtures protocol's read; the app reads a page at a time (readPage).
   */
  async read(workspaceId: string, now: Date, connectionId?: string): Promise<ActivityEntry[]> {
    const { dir, files, cutoff } = await this.#dayFiles(workspaceId, now);
    const entries: ActivityEntry[] = [];
    for (const name of files) {
      const path = join(dir, name);
      const text = await readFile(path, 'utf8');
      for (const line of text.split('\n')) {
        if (!line) continue;
        let entry: ActivityEntry;
        try {
          entry = JSON.parse(line) as ActivityEntry;
        } catch {
          continue; // the torn tail of an append a crash interrupted: never acknowledged, so not an entry
        }
        if (entry.at < cutoff) continue;
        if (connectionId && entry.connectionId !== connectionId) continue;
        entries.push(entry);
      }
    }
    return entries;
  }

  /**
   * One page of the workspace's entries, newest first (decision activity-read-newest-first): those of
   * `connectionIds` (every connection when absent), older than `before` (a cursor an earlier page answered as
   * `older`; an unknown one starts at the newest), at most `pageEntries` of them, reading at most about
   * `pageScanBytes` of day files. A line longer than `maxLineBytes` is no entry this server writes (older servers
   * kept a caller's name whole): it is skipped unread.
   */
  async readPage(
    workspaceId: string,
    now: Date,
    bounds: PageBounds,
    { connectionIds, before }: { connectionIds?: ReadonlySet<string>; before?: string | null } = {},
  ): Promise<ActivityPage> {
    const entries: ActivityEntry[] = [];
    const { older, scannedBytes } = await this.#scanNewestFirst(workspaceId, now, before ?? null, bounds, (entry) => {
      if (connectionIds && !connectionIds.has(entry.connectionId)) return false;
      entries.push(entry);
      return entries.length >= bounds.pageEntries;
    });
    return { entries, older, scannedBytes };
  }

  /**
   * When each of `connectionIds` was last used: the time of its newest entry, null when it has none within retention,
   * undefined when the bounded read (`pageScanBytes`) did not reach it. Entries this process wrote answer without a read.
   */
  async lastUsed(workspaceId: string, now: Date, connectionIds: readonly string[], bounds: PageBounds): Promise<Map<string, string | null | undefined>> {
    const found = new Map<string, string | null | undefined>();
    const wanted = new Set<string>();
    for (const id of connectionIds) {
      const at = this.#lastAt.get(id);
      if (at) found.set(id, at);
      else wanted.add(id);
    }
    if (!wanted.size) return found;
    const { older } = await this.#scanNewestFirst(workspaceId, now, null, bounds, (entry) => {
      if (!wanted.delete(entry.connectionId)) return false;
      found.set(entry.connectionId, entry.at);
      return wanted.size === 0;
    });
    // The whole log was read: the rest have no entry within retention.
    for (const id of wanted) found.set(id, older === null ? null : undefined);
    return found;
  }

  /**
   * Walks the workspace's entries newest first from `before` (`<day>:<byte offset>`), a chunk at a time backwards,
   * handing each entry to `visit` until it answers true, the read passed `pageScanBytes`, or retention is reached.
   * Answers where to continue (the start of the last visited line, or what was read so far), or null at the end.
   */
  async #scanNewestFirst(
    workspaceId: string,
    now: Date,
    before: string | null,
    bounds: PageBounds,
    visit: (entry: ActivityEntry) => boolean,
  ): Promise<{ older: string | null; scannedBytes: number }> {
    const { dir, files, cutoff } = await this.#dayFiles(workspaceId, now);
    const cursor = /^(\d{4}-\d{2}-\d{2}):(\d{1,15})$/.exec(before ?? '');
    let scannedBytes = 0;
    for (const name of files.reverse()) {
      const day = name.slice(0, 10);
      if (cursor && day > cursor[1]!) continue;
      let handle;
      try {
        handle = await open(join(dir, name), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        let end = cursor && day === cursor[1] ? Math.min(size, Number(cursor[2])) : size;
        /** Bytes from `end` on not yet handed out: the part of a line that began in a chunk not yet read. */
        let pending = Buffer.alloc(0);
        /** Inside a line longer than maxLineBytes: its beginning, still to come, is skipped too. */
        let skipping = false;
        while (end > 0) {
          if (scannedBytes >= bounds.pageScanBytes) return { older: `${day}:${end + pending.length}`, scannedBytes };
          const start = Math.max(0, end - READ_CHUNK_BYTES);
          const chunk = Buffer.alloc(end - start);
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, start);
          scannedBytes += bytesRead;
          const data = pending.length ? Buffer.concat([chunk.subarray(0, bytesRead), pending]) : chunk.subarray(0, bytesRead);
          end = start;
          let right = data.length;
          for (let nl = right > 0 ? data.lastIndexOf(0x0a, right - 1) : -1; nl !== -1; nl = right > 0 ? data.lastIndexOf(0x0a, right - 1) : -1) {
            const line = data.subarray(nl + 1, right);
            right = nl;
            if (skipping) {
              skipping = false; // this was the beginning of the long line
              continue;
            }
            const entry = line.length && line.length <= bounds.maxLineBytes ? parseLine(line) : null;
            if (!entry) continue;
            if (entry.at < cutoff) return { older: null, scannedBytes }; // older ones are all past retention
            if (visit(entry)) return { older: `${day}:${start + nl + 1}`, scannedBytes };
          }
          pending = data.subarray(0, right);
          if (start === 0) {
            const entry = !skipping && pending.length && pending.length <= bounds.maxLineBytes ? parseLine(pending) : null;
            if (entry && entry.at >= cutoff && visit(entry)) return { older: `${day}:0`, scannedBytes };
          } else if (pending.length > bounds.maxLineBytes) {
            skipping = true;
            pending = Buffer.alloc(0);
          }
        }
      } finally {
        await handle.close();
      }
    }
    return { older: null, scannedBytes };
  }
}

/** One line of a day file, or null for the torn tail of an append a crash interrupted (never acknowledged). */
function parseLine(line: Buffer): ActivityEntry | null {
  try {
    return JSON.parse(line.toString('utf8')) as ActivityEntry;
  } catch {
    return null;
  }
}
