// The file-backed store: one lowdb document per workspace (data/workspaces/<id>.json), written atomically
// (lowdb writes a temp file and renames it), plus a directory of tiny files that map a website id, a token
// hash or a user email to its workspace. Writes touch one workspace document and at most a few directory
// entries, so their cost does not grow with the number of workspaces or sites.
//
// transact() gives all-or-nothing business operations (§7.3): the operation mutates a deep copy, and only a
// copy that completed without throwing replaces the document and is written.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { WorkspaceDoc } from '../domain/model.js';
import { KeyedMutex } from './mutex.js';

export type DirectoryKind = 'site' | 'token' | 'connection' | 'email' | 'user' | 'hostname' | 'delivery' | 'oauth';

export class Store {
  readonly dataDir: string;
  #docs = new Map<string, Low<WorkspaceDoc>>();
  #loading = new Map<string, Promise<Low<WorkspaceDoc> | undefined>>();
  #directory = new Map<string, string | null>();
  #mutex = new KeyedMutex();

  private constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  static async open(dataDir: string): Promise<Store> {
    for (const sub of ['workspaces', 'directory', 'activity']) await mkdir(join(dataDir, sub), { recursive: true });
    return new Store(dataDir);
  }

  /** The current document, for reads. Callers must not mutate it: writes go through transact(). */
  async read(workspaceId: string): Promise<WorkspaceDoc | undefined> {
    return (await this.#low(workspaceId))?.data;
  }

  /** Runs `operation` on a copy of the workspace; commits the copy only if the operation returns normally. */
  async transact<T>(workspaceId: string, operation: (doc: WorkspaceDoc) => T | Promise<T>): Promise<T> {
    return this.#mutex.run(workspaceId, async () => {
      const low = await this.#low(workspaceId);
      if (!low) throw new Error(`workspace ${workspaceId} does not exist`);
      const draft = structuredClone(low.data);
      const result = await operation(draft);
      low.data = draft;
      await low.write();
      return result;
    });
  }

  /** Creates a new workspace document; fails if the id exists. */
  async create(doc: WorkspaceDoc): Promise<void> {
    await this.#mutex.run(doc.id, async () => {
      if (await this.#low(doc.id)) throw new Error(`workspace ${doc.id} exists`);
      const low = new Low<WorkspaceDoc>(this.#adapter(doc.id), doc);
      await low.write();
      this.#docs.set(doc.id, low);
    });
  }

  async setDirectory(kind: DirectoryKind, key: string, workspaceId: string): Promise<void> {
    const file = this.#dirFile(kind, key);
    await writeFile(`${file}.tmp`, workspaceId);
    await rename(`${file}.tmp`, file);
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

  #adapter(workspaceId: string) {
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) throw new Error('bad workspace id');
    return new DataFile<WorkspaceDoc>(join(this.dataDir, 'workspaces', `${workspaceId}.json`), {
      parse: JSON.parse,
      stringify: (data) => JSON.stringify(data),
    });
  }

  async #low(workspaceId: string): Promise<Low<WorkspaceDoc> | undefined> {
    const cached = this.#docs.get(workspaceId);
    if (cached) return cached;
    if (!/^[A-Za-z0-9_-]+$/.test(workspaceId)) return undefined;
    let pending = this.#loading.get(workspaceId);
    if (!pending) {
      pending = (async () => {
        const low = new Low<WorkspaceDoc>(this.#adapter(workspaceId), null as unknown as WorkspaceDoc);
        await low.read();
        if (!low.data) return undefined;
        this.#docs.set(workspaceId, low);
        return low;
      })().finally(() => this.#loading.delete(workspaceId));
      this.#loading.set(workspaceId, pending);
    }
    return pending;
  }
}
