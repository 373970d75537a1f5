// The identity provider's storage (rules oauth-state-survives-restart, oauth-state-per-record,
// oauth-unused-clients-expire): oidc-provider keeps clients, grants, sessions, interactions, authorization codes and
// refresh tokens through an adapter; this one puts them in the data directory, one file per record
// (`oidc/<Model>/<sha-256 of the id>.json`), each written atomically and durably through the store's
// writeFileDurably (temporary file, fsync, rename, directory fsync), so a restart keeps every authorized OAuth client
// working and storing one record costs the same however many are stored. The id is hashed for the file name because
// ids reach find() from callers (a client_id of any length or alphabet); the record keeps the id itself.
//
// What each record needs for lookups without reading it (its expiry, grantId, uid, userCode) is indexed in memory,
// made from the model's files on first use; expired records are removed from disk then, and by a sweep at most once
// a minute per model. A dynamically registered client is kept only `unusedClientSeconds` until it redeems an authorization
// code (oidc-provider stores clients without a lifetime). Writes of one record are serialized (one KeyedMutex key
// per record). A data directory of the former layout (one `oidc/<Model>.json` per model) is moved over on first use.
//
// Interactions are the exception to durability: one is a browser's sign-in in progress (10 minutes), made by every
// /oidc/auth request with no account, and rule oauth-state-survives-restart does not keep them. Each is still
// written whole to a temporary file and renamed (a reader never sees a torn one), but not fsync'd, so an
// authorization request waits for no disk flush; one a crash tore is dropped at open and its browser signs in again.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { fsyncDirectory, writeFileDurably } from '../infra/store/durable-file.js';
import { KeyedMutex } from '../infra/store/mutex.js';

interface Stored {
  id: string;
  payload: AdapterPayload;
  /** Epoch milliseconds after which the record is gone; absent for records without a lifetime (used clients). */
  expiresAt?: number;
}

/** What the index keeps of a record: enough to answer a lookup by id, uid, user code or grant without reading it. */
interface Indexed {
  expiresAt?: number;
  grantId?: string;
  uid?: string;
  userCode?: string;
}

export interface OidcStateOptions {
  /** How long a registered client is kept before it redeems an authorization code (spec/limits.json oauthRegistration). */
  unusedClientSeconds: number;
  /** Epoch milliseconds; the system clock unless a test moves it. */
  now?: () => number;
}

export interface OidcState {
  /** oidc-provider's adapter class. */
  Adapter: new (model: string) => Adapter;
  /** Removes every expired record of the models in use from disk; answers how many it removed. */
  sweep(): Promise<number>;
  /**
   * Whether a client has redeemed an authorization code (it is then kept without a lifetime, rule
   * oauth-unused-clients-expire). Synchronous, for oidc-provider's error events: false until the clients are loaded,
   * which they are whenever the provider has found the client it is answering for.
   */
  clientVerified(clientId: string): boolean;
  /** How many sign-ins in flight (Interaction records not expired) are held: each authorization request makes one. */
  liveInteractions(): Promise<number>;
}

const SWEEP_EVERY_MS = 60_000;
/** The models whose records name a client that has now been used: redeeming a code keeps the client. */
const CODE_MODEL = 'AuthorizationCode';
const CLIENT_MODEL = 'Client';
/** Models written atomically but without fsync: in-flight sign-ins, which a restart need not keep. */
const EPHEMERAL_MODELS = new Set(['Interaction']);

/** One model's directory and index. */
class ModelRecords {
  readonly index = new Map<string, Indexed>();
  readonly byUid = new Map<string, string>();
  readonly byUserCode = new Map<string, string>();
  readonly byGrant = new Map<string, Set<string>>();
  lastSweep = 0;
  constructor(readonly dir: string, readonly durable: boolean) {}

  fileOf(id: string): string {
    return join(this.dir, `${createHash('sha256').update(id).digest('base64url')}.json`);
  }

  remember(id: string, stored: Stored): void {
    this.forget(id);
    const { payload, expiresAt } = stored;
    const entry: Indexed = {
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(typeof payload.grantId === 'string' ? { grantId: payload.grantId } : {}),
      ...(typeof payload.uid === 'string' ? { uid: payload.uid } : {}),
      ...(typeof payload.userCode === 'string' ? { userCode: payload.userCode } : {}),
    };
    this.index.set(id, entry);
    if (entry.uid) this.byUid.set(entry.uid, id);
    if (entry.userCode) this.byUserCode.set(entry.userCode, id);
    if (entry.grantId) {
      let ids = this.byGrant.get(entry.grantId);
      if (!ids) this.byGrant.set(entry.grantId, (ids = new Set()));
      ids.add(id);
    }
  }

  forget(id: string): void {
    const entry = this.index.get(id);
    if (!entry) return;
    this.index.delete(id);
    if (entry.uid && this.byUid.get(entry.uid) === id) this.byUid.delete(entry.uid);
    if (entry.userCode && this.byUserCode.get(entry.userCode) === id) this.byUserCode.delete(entry.userCode);
    if (entry.grantId) {
      const ids = this.byGrant.get(entry.grantId);
      ids?.delete(id);
      if (ids?.size === 0) this.byGrant.delete(entry.grantId);
    }
  }
}

/** Replaces `file` whole (temporary file, rename) without waiting for the disk: for EPHEMERAL_MODELS only. */
async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function readRecord(file: string): Promise<Stored | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Opens the OAuth state of `dataDir`: oidc-provider's adapter class, and the sweep of expired records. */
export async function openOidcState(dataDir: string, options: OidcStateOptions): Promise<OidcState> {
  const root = join(dataDir, 'oidc');
  await mkdir(root, { recursive: true });
  const now = options.now ?? Date.now;
  const models = new Map<string, Promise<ModelRecords>>();
  let clients: ModelRecords | undefined;
  const mutex = new KeyedMutex();

  const write = async (records: ModelRecords, stored: Stored): Promise<void> => {
    await (records.durable ? writeFileDurably : writeFileAtomically)(records.fileOf(stored.id), JSON.stringify(stored));
    records.remember(stored.id, stored);
  };

  /** Loads a model's index from its files (and moves a former `<Model>.json` over), once. */
  const open = async (model: string): Promise<ModelRecords> => {
    const records = new ModelRecords(join(root, model), !EPHEMERAL_MODELS.has(model));
    await mkdir(records.dir, { recursive: true });
    let removed = 0;
    for (const name of await readdir(records.dir)) {
      const file = join(records.dir, name);
      // A temporary file a crash left behind (writeFileDurably renames only complete ones).
      if (name.endsWith('.tmp')) await rm(file, { force: true });
      else if (name.endsWith('.json')) {
        const stored = records.durable ? await readRecord(file) : await readRecord(file).catch(() => undefined);
        // What expired while the server was stopped goes now, not at the model's next write.
        if (stored && stored.expiresAt !== undefined && stored.expiresAt <= now()) {
          await rm(file, { force: true });
          removed++;
        } else if (stored) records.remember(stored.id, stored);
        else if (!records.durable) await rm(file, { force: true }); // torn by a crash: never fsync'd
      }
    }
    if (removed) await fsyncDirectory(records.dir);
    const former = join(root, `${model}.json`);
    const formerDoc = await readRecord(former).catch(() => undefined) as unknown as Record<string, Omit<Stored, 'id'>> | undefined;
    if (formerDoc) {
      for (const [id, entry] of Object.entries(formerDoc)) if (entry.expiresAt === undefined || entry.expiresAt > now()) await write(records, { id, ...entry });
      await rm(former, { force: true });
      await fsyncDirectory(root);
    }
    return records;
  };

  const recordsOf = (model: string): Promise<ModelRecords> => {
    let records = models.get(model);
    if (!records) {
      if (!/^[A-Za-z]+$/.test(model)) throw new Error(`unexpected oidc-provider model name ${model}`);
      records = open(model);
      if (model === CLIENT_MODEL) void records.then((loaded) => (clients = loaded), () => undefined);
      models.set(model, records);
    }
    return records;
  };

  const expired = (entry: Indexed | undefined, at = now()): boolean => entry?.expiresAt !== undefined && entry.expiresAt <= at;

  /** Removes one record, durably: a revoked token must not come back after a crash. */
  const remove = (records: ModelRecords, id: string): Promise<void> =>
    mutex.run(records.fileOf(id), async () => {
      if (!records.index.has(id)) return;
      await rm(records.fileOf(id), { force: true });
      if (records.durable) await fsyncDirectory(records.dir);
      records.forget(id);
    });

  const sweepModel = async (records: ModelRecords): Promise<number> => {
    records.lastSweep = now();
    const gone = [...records.index].filter(([, entry]) => expired(entry)).map(([id]) => id);
    for (const id of gone) await remove(records, id);
    return gone.length;
  };

  /** At most once a minute per model, in the background of a write: the disk holds no more than what is live. */
  const maybeSweep = (records: ModelRecords): void => {
    if (now() - records.lastSweep < SWEEP_EVERY_MS) return;
    records.lastSweep = now();
    sweepModel(records).catch((error: Error) => console.error('[site-mcp] sweeping expired OAuth records failed:', error.message));
  };

  const find = async (records: ModelRecords, id: string): Promise<Stored | undefined> => {
    const entry = records.index.get(id);
    if (!entry || expired(entry)) return undefined;
    const stored = records.durable ? await readRecord(records.fileOf(id)) : await readRecord(records.fileOf(id)).catch(() => undefined);
    return stored?.id === id && !expired(stored) ? stored : undefined;
  };

  /** A client that redeemed an authorization code is kept from now on (rule oauth-unused-clients-expire). */
  const keepClient = async (clientId: unknown): Promise<void> => {
    if (typeof clientId !== 'string') return;
    const clients = await recordsOf(CLIENT_MODEL);
    await mutex.run(clients.fileOf(clientId), async () => {
      if (clients.index.get(clientId)?.expiresAt === undefined) return;
      const stored = await find(clients, clientId);
      if (stored) await write(clients, { id: clientId, payload: stored.payload });
    });
  };

  const Adapter = class DurableAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const records = await recordsOf(this.model);
      await mutex.run(records.fileOf(id), async () => {
        let expiresAt = expiresIn ? now() + expiresIn * 1000 : undefined;
        // oidc-provider stores clients without a lifetime: a new one lives until it redeems a code, one that did is kept.
        if (this.model === CLIENT_MODEL && !expiresIn) {
          const known = records.index.get(id);
          expiresAt = known && known.expiresAt === undefined ? undefined : known?.expiresAt ?? now() + options.unusedClientSeconds * 1000;
        }
        await write(records, { id, payload, ...(expiresAt !== undefined ? { expiresAt } : {}) });
      });
      maybeSweep(records);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await find(await recordsOf(this.model), id))?.payload;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const records = await recordsOf(this.model);
      const id = records.byUserCode.get(userCode);
      return id === undefined ? undefined : (await find(records, id))?.payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const records = await recordsOf(this.model);
      const id = records.byUid.get(uid);
      return id === undefined ? undefined : (await find(records, id))?.payload;
    }

    async consume(id: string): Promise<void> {
      const records = await recordsOf(this.model);
      let clientId: unknown;
      await mutex.run(records.fileOf(id), async () => {
        const stored = await find(records, id);
        if (!stored) return;
        await write(records, { ...stored, payload: { ...stored.payload, consumed: Math.floor(now() / 1000) } });
        clientId = stored.payload.clientId;
      });
      if (this.model === CODE_MODEL) await keepClient(clientId);
    }

    async destroy(id: string): Promise<void> {
      await remove(await recordsOf(this.model), id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const records = await recordsOf(this.model);
      for (const id of [...(records.byGrant.get(grantId) ?? [])]) await remove(records, id);
    }
  };

  return {
    Adapter,
    clientVerified: (clientId) => {
      const entry = clients?.index.get(clientId);
      return entry !== undefined && entry.expiresAt === undefined;
    },
    liveInteractions: async () => {
      const at = now();
      let live = 0;
      for (const entry of (await recordsOf('Interaction')).index.values()) if (entry.expiresAt === undefined || entry.expiresAt > at) live++;
      return live;
    },
    sweep: async () => {
      let removed = 0;
      for (const records of models.values()) removed += await sweepModel(await records);
      return removed;
    },
  };
}

/** The provider's signing key and cookie keys, made once per data directory and kept there. */
export async function persistentKeys(dataDir: string, make: () => Promise<{ signing: Record<string, unknown>; cookies: string[] }>) {
  const file = join(dataDir, 'oidc', 'keys.json');
  await mkdir(join(dataDir, 'oidc'), { recursive: true });
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { signing: Record<string, unknown>; cookies: string[] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = await make();
  await writeFileDurably(file, JSON.stringify(made));
  return made;
}
