// Store guarantees the rest of the server relies on: all-or-nothing transactions (§7.3), one document per site
// plus one per workspace (reference/infra/store/README.md), commits of several files all or none across a crash,
// atomic writes, and serialized operations per workspace.
import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { open } from 'node:fs/promises';
import { ActivityLog } from '../infra/store/activity.js';
import { Store } from '../infra/store/store.js';
import type { WorkspaceDoc } from '../domain/model.js';
import { newWorkspaceDoc } from '../domain/workspace.js';
import { companyIdForPlan, createCompany } from '../domain/company.js';
import { storedWorkspace } from './stored-layout.js';

function doc(id: string): WorkspaceDoc {
  return { ...newWorkspaceDoc({ companyName: 'Co', plan: 'free', ownerUserId: 'u1', credits: 3, aiConsent: true }, new Date(0)), id };
}

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-store-'));
  store = await Store.open(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Store', () => {
  it('rule:error-business-failure-rolls-back — a transaction that throws leaves memory and disk unchanged', async () => {
    await store.create(doc('ws_a'));
    await expect(
      store.transact('ws_a', (ws) => {
        ws.credits = 99;
        ws.companyName = 'Half-written';
        throw new Error('provider failed');
      }),
    ).rejects.toThrow('provider failed');
    expect((await store.read('ws_a'))!.credits).toBe(3);
    const onDisk = await storedWorkspace(dir, 'ws_a');
    expect(onDisk.credits).toBe(3);
    expect(onDisk.companyName).toBe('Co');
  });

  it('commits a successful transaction to disk, in its workspace\'s documents only', async () => {
    await store.create(doc('ws_a'));
    await store.create(doc('ws_b'));
    await store.transact('ws_a', (ws) => {
      ws.credits = 7;
    });
    const reopened = await Store.open(dir);
    expect((await reopened.read('ws_a'))!.credits).toBe(7);
    expect((await reopened.read('ws_b'))!.credits).toBe(3);
    expect((await readdir(join(dir, 'workspaces'))).sort()).toEqual(['ws_a', 'ws_b']);
    expect((await storedWorkspace(dir, 'ws_b')).credits).toBe(3);
  });

  it('serializes concurrent read-check-writes on one workspace (no lost update, balance never negative)', async () => {
    await store.create(doc('ws_a'));
    const spend = () =>
      store.transact('ws_a', async (ws) => {
        if (ws.credits < 1) throw new Error('insufficient');
        await new Promise((r) => setTimeout(r, 1));
        ws.credits -= 1;
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, spend));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((await store.read('ws_a'))!.credits).toBe(0);
  });

  it('answers undefined for unknown or malformed workspace ids instead of touching other paths', async () => {
    expect(await store.read('nope')).toBeUndefined();
    expect(await store.read('../etc/passwd')).toBeUndefined();
  });

  it('keeps directory entries across reopen', async () => {
    await store.setDirectory('site', 'site_x', 'ws_a');
    const reopened = await Store.open(dir);
    expect(await reopened.lookupDirectory('site', 'site_x')).toBe('ws_a');
    expect(await reopened.lookupDirectory('site', 'site_missing')).toBeUndefined();
  });

  it('rule:store-durable-commit — a write that fails on disk is not kept in memory, and the next write does not persist it', async () => {
    await store.create(doc('ws_a'));
    const file = join(dir, 'workspaces', 'ws_a', 'workspace.json');
    // Make the rename onto the document fail: its path is now a directory.
    await rm(file);
    await mkdir(file);
    await expect(store.transact('ws_a', (ws) => void (ws.credits = 99))).rejects.toThrow();
    expect((await store.read('ws_a'))!.credits).toBe(3);
    await rmdir(file);
    await store.transact('ws_a', (ws) => void (ws.companyName = 'Renamed'));
    const onDisk = await storedWorkspace(dir, 'ws_a');
    expect(onDisk.credits).toBe(3);
    expect(onDisk.companyName).toBe('Renamed');
  });

  it('rule:tool-arguments-bounded — a deeply nested record never makes later writes of its workspace fail', async () => {
    await store.create(doc('ws_a'));
    const nested = (depth: number) => {
      let value: Record<string, unknown> = { leaf: true };
      for (let i = 0; i < depth; i++) value = { a: value };
      return value;
    };
    // Deeper than structuredClone can copy (≈1,600 levels) yet serializable: accepted, and the workspace stays writable.
    await store.transact('ws_a', (ws) => void ((ws as unknown as Record<string, unknown>).deep = nested(2_500)));
    await store.transact('ws_a', (ws) => void (ws.credits = 4));
    // Too deep to serialize: refused, nothing kept, still writable.
    await expect(store.transact('ws_a', (ws) => void ((ws as unknown as Record<string, unknown>).deeper = nested(20_000)))).rejects.toThrow(/cannot be stored/);
    await store.transact('ws_a', (ws) => void (ws.credits = 5));
    const reopened = await Store.open(dir);
    expect((await reopened.read('ws_a'))!.credits).toBe(5);
    expect((await reopened.read('ws_a')) as unknown as Record<string, unknown>).not.toHaveProperty('deeper');
  });

  it('rule:store-lookups-with-document — lookup entries of a transaction commit with its documents, and not at all when it fails', async () => {
    await store.create(doc('ws_a'));
    await store.transact('ws_a', (ws, tx) => {
      ws.credits = 1;
      tx.index('site', 'site_new');
    });
    expect(await (await Store.open(dir)).lookupDirectory('site', 'site_new')).toBe('ws_a');
    await expect(
      store.transact('ws_a', (_ws, tx) => {
        tx.index('site', 'site_never');
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(await (await Store.open(dir)).lookupDirectory('site', 'site_never')).toBeUndefined();
    // The entry and its record are one commit: if that commit cannot be made, neither is kept.
    const failing = await Store.open(dir, { beforeFileWrite: (path) => {
      if (path.startsWith('journal/')) throw new Error('disk full');
    } });
    await expect(failing.transact('ws_a', (ws, tx) => {
      ws.sites.site_lost = { websiteId: 'site_lost' } as never;
      tx.index('site', 'site_lost');
    })).rejects.toThrow('disk full');
    expect(await failing.lookupDirectory('site', 'site_lost')).toBeUndefined();
    expect((await failing.read('ws_a'))!.sites).toEqual({});
    const reopened = await Store.open(dir);
    expect(await reopened.lookupDirectory('site', 'site_lost')).toBeUndefined();
    expect((await reopened.read('ws_a'))!.sites).toEqual({});
  });

  it('removes temporary files that a crash left behind at open', async () => {
    await store.create(doc('ws_a'));
    await writeFile(join(dir, 'tmp', 'workspace.json.abc123.tmp'), '{"torn":');
    await writeFile(join(dir, 'workspaces', 'ws_b.json.abc123.tmp'), '{"torn":'); // the old layout's
    const reopened = await Store.open(dir);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    expect(await readdir(join(dir, 'workspaces'))).toEqual(['ws_a']);
    expect((await reopened.read('ws_a'))!.credits).toBe(3);
    expect((await readdir(join(dir, 'workspaces', 'ws_a'))).sort()).toEqual(['workspace.json']);
  });

  it('rule:create-company-once — a retried company creation for one plan adopts the first company', async () => {
    const anchor = doc('ws_a');
    anchor.users.u1 = { userId: 'u1', email: 'u1@example.test', name: 'U', passwordHash: 'x' } as never;
    await store.create(anchor);
    const confirm = (planId: string, name: string, at: number) => store.transact('ws_a', (ws, tx) => createCompany(store, tx, ws, planId, name, 'u1', new Date(at)));
    const first = await confirm('plan_1', 'New Co', 0);
    const retry = await confirm('plan_1', 'New Co', 1);
    const other = await confirm('plan_2', 'Other Co', 2);
    expect(first.id).toBe(companyIdForPlan('ws_a', 'plan_1'));
    expect(retry.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect((await readdir(join(dir, 'workspaces'))).sort()).toEqual([first.id, other.id, 'ws_a'].sort());
  });

  it('rule:company-creation-atomic — a new company whose anchor commit fails is removed again; the retry creates it once', async () => {
    let failNext = true;
    const failing = await Store.open(dir, {
      beforeCommit: () => {
        if (failNext) throw new Error('the write failed');
      },
    });
    const anchor = doc('ws_a');
    anchor.users.u1 = { userId: 'u1', email: 'u1@example.test', name: 'U', passwordHash: 'x' } as never;
    await failing.create(anchor);
    const confirm = () => failing.transact('ws_a', (ws, tx) => createCompany(failing, tx, ws, 'plan_1', 'New Co', 'u1', new Date(0)));
    await expect(confirm()).rejects.toThrow('the write failed');
    const id = companyIdForPlan('ws_a', 'plan_1');
    expect(await failing.exists(id), 'the company of a failed confirmation').toBe(false);
    expect(await readdir(join(dir, 'workspaces'))).toEqual(['ws_a']);
    failNext = false;
    expect((await confirm()).id).toBe(id);
    expect((await readdir(join(dir, 'workspaces'))).sort()).toEqual([id, 'ws_a'].sort());
  });

  it('rule:tool-answer-checked-before-commit — held writes are made only after the check; a failed check keeps nothing and undoes side effects', async () => {
    await store.create(doc('ws_a'));
    const undone: string[] = [];
    const run = () =>
      store.transact('ws_a', (ws, tx) => {
        ws.credits = 42;
        tx.onAbort(() => void undone.push('library file'));
        return ws.credits;
      });
    await expect(store.holdCommits(run, () => {
      throw new Error('answer outside its schema');
    })).rejects.toThrow('answer outside its schema');
    expect((await store.read('ws_a'))!.credits).toBe(3);
    expect((await storedWorkspace(dir, 'ws_a')).credits).toBe(3);
    expect(undone).toEqual(['library file']);
    expect(await store.holdCommits(run, () => undefined)).toBe(42);
    expect((await store.read('ws_a'))!.credits).toBe(42);
    expect(undone).toEqual(['library file']);
  });

  it('rule:tool-answer-checked-before-commit — a call with held writes reads its own writes and keeps the workspace locked until it ends', async () => {
    await store.create(doc('ws_a'));
    const order: string[] = [];
    let other: Promise<unknown> | undefined;
    await store.holdCommits(async () => {
      await store.transact('ws_a', (ws) => void (ws.credits = 10));
      await store.transact('ws_a', (ws) => void (ws.credits += 1)); // builds on the held write
      expect((await store.read('ws_a'))!.credits).toBe(11);
      // Outside this call: runs only after the held write is made, so it is never lost.
      other = store.holdCommits(() => store.transact('ws_a', (ws) => void (order.push('other'), (ws.credits *= 2))), () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('held call ends');
    }, () => undefined);
    await other;
    expect(order).toEqual(['held call ends', 'other']);
    expect((await store.read('ws_a'))!.credits).toBe(22);
  });

  it('rule:store-durable-commit — a commit fsyncs the new file and its directory; an activity append fsyncs before it resolves', async () => {
    // FileHandle is not exported: take its prototype from an open handle and watch sync/datasync on it.
    const probe = await open(dir, 'r');
    const proto = Object.getPrototypeOf(probe) as { sync(): Promise<void>; datasync(): Promise<void> };
    await probe.close();
    const sync = vi.spyOn(proto, 'sync');
    const datasync = vi.spyOn(proto, 'datasync');
    try {
      await store.create(doc('ws_a'));
      sync.mockClear();
      await store.transact('ws_a', (ws) => void (ws.credits = 9));
      expect(sync.mock.calls.length, 'the temp file and the directory').toBeGreaterThanOrEqual(2);
      const activity = new ActivityLog(dir, 90);
      await activity.append({ at: new Date(0).toISOString(), connectionId: 'c', workspaceId: 'ws_a', websiteId: null, kind: 'tool', name: 'list_sites', outcome: 'ok' });
      expect(datasync).toHaveBeenCalled();
      // The log keeps its day file open; a worker that runs other files next must not find it closed by GC.
      await activity.close();
    } finally {
      sync.mockRestore();
      datasync.mockRestore();
    }
  });
});
