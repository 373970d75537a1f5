// Broken services: decorations of the reference's services (reference/services.ts) and of its store, each
// breaking one rule the way a server without that care would. A decoration replaces a few methods and lets the
// service itself run every other one.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DnsClient } from '../../reference/infra/dns.js';
import type { WorkspaceDoc } from '../../reference/domain/model.js';
import { httpTransport } from '../../reference/infra/safe-fetch.js';
import type { Network } from '../../reference/infra/safe-fetch.js';
import type { Store, Transaction } from '../../reference/infra/store/store.js';

/** `target` with the methods of `replaced`; every other method runs on the target itself (its private fields stay reachable). */
function decorate<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(t, key) {
      if (Object.hasOwn(replaced, key)) return replaced[key as keyof T];
      const value: unknown = Reflect.get(t, key, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

/** connect-domain-before-dns: only the hostname itself is asked for, so an owned name whose DNS is not set yet is refused. */
export const askOnlyTheHostname = (dns: DnsClient): DnsClient => decorate(dns, { addressExists: (hostname: string) => dns.exists(hostname) });

/** domain-nonexistent-address: every name counts as an existing address. */
export const everyAddressExists = (dns: DnsClient): DnsClient => decorate(dns, { addressExists: async () => true });

/** migrate-crawl-bounded: robots.txt is fetched but never obeyed (it reads as missing). */
export const ignoreRobots = (net: Network): Network => ({
  ...net,
  transport: async (url, address, options) => {
    const answer = await (net.transport ?? httpTransport)(url, address, options);
    return url.pathname === '/robots.txt' ? { status: 404, headers: {}, body: Buffer.alloc(0) } : answer;
  },
});

/** What the operations of one write saw: the drafts of the workspaces they wrote, and the documents they created. */
interface Seen {
  drafts: Map<string, WorkspaceDoc>;
  created: WorkspaceDoc[];
}

/**
 * The store, telling `on` what each write saw once it failed or committed. A write is one transaction, or all the
 * transactions of a tool call with held writes (rule tool-answer-checked-before-commit).
 */
function watchWrites(store: Store, on: { failed(seen: Seen): Promise<void> | void; committed?(seen: Seen): void }): Store {
  const writes = new AsyncLocalStorage<Seen>();
  const watched = async <T>(write: () => Promise<T>): Promise<T> => {
    if (writes.getStore()) return write();
    const seen: Seen = { drafts: new Map(), created: [] };
    try {
      const result = await writes.run(seen, write);
      on.committed?.(seen);
      return result;
    } catch (error) {
      await on.failed(seen);
      throw error;
    }
  };
  const recording = (workspaceId: string, doc: WorkspaceDoc, tx: Transaction): Transaction => {
    const seen = writes.getStore();
    seen?.drafts.set(workspaceId, doc);
    return decorate(tx, { create: (created: WorkspaceDoc) => (seen?.created.push(created), tx.create(created)) });
  };
  return decorate(store, {
    transact: (workspaceId, operation) => watched(() => store.transact(workspaceId, (doc, tx) => operation(doc, recording(workspaceId, doc, tx)))),
    holdCommits: (run, check) => watched(() => store.holdCommits(run, check)),
  });
}

/** error-business-failure-rolls-back: a write that fails stays in memory, so reads see it until the workspace's next write commits. */
export function keepFailedWrites(store: Store): Store {
  const kept = new Map<string, WorkspaceDoc>();
  const watched = watchWrites(store, {
    failed: ({ drafts }) => drafts.forEach((doc, workspaceId) => kept.set(workspaceId, doc)),
    committed: ({ drafts }) => drafts.forEach((_doc, workspaceId) => kept.delete(workspaceId)),
  });
  return decorate(watched, { read: async (workspaceId: string) => kept.get(workspaceId) ?? store.read(workspaceId) });
}

/** company-creation-atomic: a document a failed write created stays (a new company outlives the confirmation that failed). */
export const keepCreatedDocuments = (store: Store): Store =>
  watchWrites(store, {
    failed: async ({ created }) => {
      for (const doc of created) await store.create(doc, [], { ifAbsent: true });
    },
  });
