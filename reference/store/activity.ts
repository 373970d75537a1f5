// Activity log (§2.7): one PII-free line per call, appended to a per-workspace, per-day JSONL file, so an
// entry costs one small append and never a rewrite of a growing document. Entries older than the retention
// window (90 days by the workspace's clock) are never returned and their day files are deleted.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { appendFileDurably } from './durable-file.js';
import { join } from 'node:path';
import type { ActivityEntry as ActivityLine } from '../../generated/schemas/fixtures/fixtures.js';

/**
 * One stored entry: the fixtures protocol's ActivityEntry (spec/schemas/fixtures), with its workspace and website
 * always set. `summary` is PII-free: names of things (record type, field names, counts), never values (rule
 * activity-pii-free).
 */
export type ActivityEntry = ActivityLine & Required<Pick<ActivityLine, 'workspaceId' | 'websiteId'>>;

const DAY_MS = 86_400_000;

export class ActivityLog {
  #dir: string;
  #retentionDays: number;
  /** Appends in flight per file, so that a read sees every entry written before it. */
  #pending = new Map<string, Promise<void>>();
  /** The batch still collecting lines for each file (written on the next tick). */
  #batches = new Map<string, { lines: string[]; written: Promise<void> }>();
  #madeDirs = new Set<string>();

  constructor(dataDir: string, retentionDays: number) {
    this.#dir = join(dataDir, 'activity');
    this.#retentionDays = retentionDays;
  }

  /**
   * Queues the entry; entries that arrive in the same tick for one file are written by one fsync'd append, so
   * a busy server does one small write per file per tick rather than one per call. Callers await it before
   * answering, so an answered call's entry survives a crash (rule activity-entry-every-call).
   */
  append(entry: ActivityEntry): Promise<void> {
    const dir = join(this.#dir, entry.workspaceId);
    const file = join(dir, `${entry.at.slice(0, 10)}.jsonl`);
    let batch = this.#batches.get(file);
    if (!batch) {
      const lines: string[] = [];
      const previous = this.#pending.get(file) ?? Promise.resolve();
      const written = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => previous)
        .then(async () => {
          this.#batches.delete(file);
          if (!this.#madeDirs.has(dir)) {
            await mkdir(dir, { recursive: true });
            this.#madeDirs.add(dir);
          }
          await appendFileDurably(file, lines.join(''));
        });
      const tracked = written.finally(() => {
        if (this.#pending.get(file) === tracked) this.#pending.delete(file);
      });
      batch = { lines, written: tracked };
      this.#batches.set(file, batch);
      this.#pending.set(file, tracked);
    }
    batch.lines.push(`${JSON.stringify(entry)}\n`);
    return batch.written;
  }

  /** Resolves when every queued entry is on disk. */
  async flush(): Promise<void> {
    await Promise.allSettled(this.#pending.values());
  }

  /** Entries of one workspace (optionally one connection) within retention at `now`, oldest first. */
  async read(workspaceId: string, now: Date, connectionId?: string): Promise<ActivityEntry[]> {
    await this.flush();
    const dir = join(this.#dir, workspaceId);
    let files: string[];
    try {
      files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const cutoff = new Date(now.getTime() - this.#retentionDays * DAY_MS).toISOString();
    const entries: ActivityEntry[] = [];
    for (const file of files) {
      // A day file wholly before the cutoff day is past retention: delete it (rule activity-retention-90-days).
      if (`${file.slice(0, 10)}T23:59:59.999Z` < cutoff) {
        await rm(join(dir, file), { force: true });
        continue;
      }
      const text = await readFile(join(dir, file), 'utf8');
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
}
