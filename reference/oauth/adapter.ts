// The identity provider's storage (rule oauth-state-survives-restart): oidc-provider keeps clients, grants,
// sessions, interactions, authorization codes and refresh tokens through an adapter; this one puts them in the
// data directory, one lowdb document per model (`oidc/<Model>.json`), each write atomic and durable through
// the store's writeFileDurably, so a restart keeps every authorized OAuth client working. Expired entries are
// dropped when their model is next written. Writes of one model are serialized (one KeyedMutex key per model).
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Low, type Adapter as LowAdapter } from 'lowdb';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { writeFileDurably } from '../store/durable-file.js';
import { KeyedMutex } from '../store/mutex.js';

interface Stored {
  payload: AdapterPayload;
  /** Epoch milliseconds after which the entry is gone; absent for entries without a lifetime (clients). */
  expiresAt?: number;
}
type ModelDoc = Record<string, Stored>;

/** A lowdb adapter for one JSON file, written atomically and durably. */
class DurableJsonFile<T> implements LowAdapter<T> {
  constructor(readonly path: string) {}
  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.path, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
  async write(data: T): Promise<void> {
    await writeFileDurably(this.path, JSON.stringify(data));
  }
}

/** Opens the OAuth state of `dataDir` and gives oidc-provider its adapter class. */
export async function durableAdapterFor(dataDir: string): Promise<new (model: string) => Adapter> {
  const dir = join(dataDir, 'oidc');
  await mkdir(dir, { recursive: true });
  const docs = new Map<string, Promise<Low<ModelDoc>>>();
  const mutex = new KeyedMutex();

  const docOf = (model: string): Promise<Low<ModelDoc>> => {
    let doc = docs.get(model);
    if (!doc) {
      if (!/^[A-Za-z]+$/.test(model)) throw new Error(`unexpected oidc-provider model name ${model}`);
      const low = new Low<ModelDoc>(new DurableJsonFile<ModelDoc>(join(dir, `${model}.json`)), {});
      doc = low.read().then(() => {
        low.data ??= {};
        return low;
      });
      docs.set(model, doc);
    }
    return doc;
  };

  const live = (entry: Stored | undefined, now = Date.now()): AdapterPayload | undefined =>
    entry && (entry.expiresAt === undefined || entry.expiresAt > now) ? entry.payload : undefined;

  /** Changes one model's document under its lock, dropping expired entries, and writes it durably. */
  const change = (model: string, edit: (data: ModelDoc) => void): Promise<void> =>
    mutex.run(model, async () => {
      const low = await docOf(model);
      const next = structuredClone(low.data);
      const now = Date.now();
      for (const [id, entry] of Object.entries(next)) if (!live(entry, now)) delete next[id];
      edit(next);
      // Durable first, then in memory: a failed write leaves the served state as it was on disk.
      await low.adapter.write(next);
      low.data = next;
    });

  const findWhere = async (model: string, match: (p: AdapterPayload) => boolean): Promise<AdapterPayload | undefined> => {
    const now = Date.now();
    for (const entry of Object.values((await docOf(model)).data)) {
      const payload = live(entry, now);
      if (payload && match(payload)) return payload;
    }
    return undefined;
  };

  return class DurableAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await change(this.model, (data) => {
        data[id] = expiresIn ? { payload, expiresAt: Date.now() + expiresIn * 1000 } : { payload };
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const { data } = await docOf(this.model);
      return live(Object.hasOwn(data, id) ? data[id] : undefined);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return findWhere(this.model, (p) => p.userCode === userCode);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return findWhere(this.model, (p) => p.uid === uid);
    }

    async consume(id: string): Promise<void> {
      await change(this.model, (data) => {
        const entry = Object.hasOwn(data, id) ? data[id] : undefined;
        if (entry) entry.payload = { ...entry.payload, consumed: Math.floor(Date.now() / 1000) };
      });
    }

    async destroy(id: string): Promise<void> {
      await change(this.model, (data) => {
        delete data[id];
      });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await change(this.model, (data) => {
        for (const [id, entry] of Object.entries(data)) if (entry.payload.grantId === grantId) delete data[id];
      });
    }
  };
}

/** The provider's signing key and cookie keys, made once per data directory and kept there. */
export async function persistentKeys(dataDir: string, make: () => Promise<{ signing: Record<string, unknown>; cookies: string[] }>) {
  const file = new DurableJsonFile<{ signing: Record<string, unknown>; cookies: string[] }>(join(dataDir, 'oidc', 'keys.json'));
  await mkdir(join(dataDir, 'oidc'), { recursive: true });
  const existing = await file.read();
  if (existing) return existing;
  const made = await make();
  await file.write(made);
  return made;
}
