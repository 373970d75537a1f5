// Store guarantees the rest of the server relies on: all-or-nothing transactions (§7.3), one file per
// workspace, atomic writes, and serialized operations per workspace.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.js';
import type { WorkspaceDoc } from '../domain/model.js';
import { newWorkspaceDoc } from '../domain/workspace.js';

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
    const onDisk = JSON.parse(await readFile(join(dir, 'workspaces', 'ws_a.json'), 'utf8')) as WorkspaceDoc;
    expect(onDisk.credits).toBe(3);
    expect(onDisk.companyName).toBe('Co');
  });

  it('commits a successful transaction to disk, in the workspace file only', async () => {
    await store.create(doc('ws_a'));
    await store.create(doc('ws_b'));
    await store.transact('ws_a', (ws) => {
      ws.credits = 7;
    });
    const reopened = await Store.open(dir);
    expect((await reopened.read('ws_a'))!.credits).toBe(7);
    expect((await reopened.read('ws_b'))!.credits).toBe(3);
    expect((await readdir(join(dir, 'workspaces'))).sort()).toEqual(['ws_a.json', 'ws_b.json']);
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
});
