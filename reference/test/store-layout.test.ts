// The store's layout (reference/infra/store/README.md): one document per site plus one per workspace, copy-on-write
// of the sites an operation reads, commits of several documents through an intent file (journal.ts) that make a
// crash at any step leave all of a commit or none of it, and the conversion of a data directory of the old
// one-document-per-workspace layout. Crashes are injected through the store's seam (StoreHooks.beforeFileWrite):
// a throw at a file write stops the commit there, and the store is then abandoned as a killed process would be
// and the directory reopened. reference/test/crash.test.ts kills the real server for the same guarantees.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../infra/store/store.js';
import type { Site, WorkspaceDoc } from '../domain/model.js';
import { newWorkspaceDoc } from '../domain/workspace.js';
import { newSite } from '../domain/site.js';
import { companyIdForPlan, createCompany } from '../domain/company.js';
import { storedWorkspace } from './stored-layout.js';

function site(name: string): Site {
  return newSite({ name, businessName: name, members: { u1: 'owner' }, now: new Date(0) });
}

/** A workspace of `count` sites, owner u1. */
function workspace(id: string, count: number): WorkspaceDoc {
  const doc: WorkspaceDoc = { ...newWorkspaceDoc({ companyName: 'Co', plan: 'agency', ownerUserId: 'u1', credits: 5, aiConsent: true }, new Date(0)), id };
  doc.users.u1 = { userId: 'u1', email: 'u1@example.test', name: 'U', passwordHash: 'x' };
  for (let i = 0; i < count; i++) {
    const s = site(`Site ${i}`);
    doc.sites[s.websiteId] = s;
  }
  return doc;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-store-layout-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A store whose file writes are reported to `seen`, and whose `failAt`-th write (0-based, once armed) throws. */
async function instrumented(seen: string[] = []) {
  const control = { armed: false, failAt: -1, count: 0 };
  const store = await Store.open(dir, {
    beforeFileWrite: (path) => {
      if (!control.armed) return;
      seen.push(path);
      if (control.count++ === control.failAt) throw new Error(`crash at write ${control.failAt} (${path})`);
    },
  });
  return { store, control, seen };
}

describe('store layout', () => {
  it('rule:store-durable-commit — one document per site plus one per workspace; an edit of one site writes that site\'s document only', async () => {
    const seen: string[] = [];
    const { store, control } = await instrumented(seen);
    const doc = workspace('ws_a', 3);
    await store.create(doc);
    const [first, second] = Object.keys(doc.sites);
    expect((await readdir(join(dir, 'workspaces', 'ws_a', 'sites'))).sort()).toEqual(Object.keys(doc.sites).map((id) => `${id}.json`).sort());
    control.armed = true;
    await store.transact('ws_a', (ws) => void (ws.sites[second!]!.name = 'Renamed'));
    expect(seen).toEqual([join('workspaces', 'ws_a', 'sites', `${second}.json`)]);
    // Reading other sites copies them but changes nothing: nothing else is written.
    seen.length = 0;
    await store.transact('ws_a', (ws) => void Object.values(ws.sites).map((s) => s.name));
    expect(seen).toEqual([]);
    // A workspace-level change writes the workspace document only.
    await store.transact('ws_a', (ws) => void (ws.credits = 4));
    expect(seen).toEqual([join('workspaces', 'ws_a', 'workspace.json')]);
    const onDisk = await storedWorkspace(dir, 'ws_a');
    expect(onDisk.sites[second!]!.name).toBe('Renamed');
    expect(onDisk.sites[first!]!.name).toBe('Site 0');
    expect(onDisk.credits).toBe(4);
    expect(Object.keys(onDisk.sites)).toEqual(Object.keys(doc.sites));
  });

  it('the draft\'s sites behave as a plain record: order, own keys only, add, delete, replace the whole record', async () => {
    const store = await Store.open(dir);
    const doc = workspace('ws_a', 2);
    await store.create(doc);
    const [a, b] = Object.keys(doc.sites) as [string, string];
    const added = site('Added');
    await store.transact('ws_a', (ws) => {
      expect(Object.hasOwn(ws.sites, 'toString')).toBe(false);
      expect('toString' in ws.sites).toBe(true); // inherited, as on any object
      expect(ws.sites.constructor).toBe(Object);
      expect(Object.keys(ws.sites)).toEqual([a, b]);
      expect(Object.hasOwn(ws.sites, a)).toBe(true);
      ws.sites[added.websiteId] = added;
      delete ws.sites[a];
      expect(a in ws.sites).toBe(false);
      expect(Object.keys(ws.sites)).toEqual([b, added.websiteId]);
      expect(JSON.parse(JSON.stringify(ws.sites))).toEqual({ [b]: JSON.parse(JSON.stringify(doc.sites[b])), [added.websiteId]: JSON.parse(JSON.stringify(added)) });
      expect({ ...ws.sites }[b]!.name).toBe('Site 1');
    });
    // Reads see the committed record in its order, each site as committed (a view derived from the previous one).
    expect(Object.keys((await store.read('ws_a'))!.sites)).toEqual([b, added.websiteId]);
    await store.transact('ws_a', (ws) => void (ws.sites[b]!.name = 'B edited'));
    expect(Object.values((await store.read('ws_a'))!.sites).map((s) => s.name)).toEqual(['B edited', 'Added']);
    // A site removed and put back moves to the end, as on a plain record; one set to undefined is gone.
    await store.transact('ws_a', (ws) => {
      const kept = ws.sites[b]!;
      delete ws.sites[b];
      ws.sites[b] = kept;
      expect(Object.keys(ws.sites)).toEqual([added.websiteId, b]);
    });
    expect(Object.keys((await store.read('ws_a'))!.sites)).toEqual([added.websiteId, b]);
    await store.transact('ws_a', (ws) => {
      ws.sites[b] = undefined as never;
      expect(Object.keys(ws.sites)).toEqual([added.websiteId]);
    });
    expect(Object.keys((await store.read('ws_a'))!.sites)).toEqual([added.websiteId]);
    await store.transact('ws_a', (ws) => void (ws.sites[b] = { ...doc.sites[b]!, name: 'B edited' }));
    const reopened = await Store.open(dir);
    expect(Object.keys((await reopened.read('ws_a'))!.sites)).toEqual([added.websiteId, b]);
    expect(await reopened.read('ws_a')).toEqual(await store.read('ws_a'));
    expect(await readdir(join(dir, 'workspaces', 'ws_a', 'sites'))).not.toContain(`${a}.json`);
    // An operation that replaces the record is stored as it left it.
    await reopened.transact('ws_a', (ws) => void (ws.sites = { [added.websiteId]: { ...ws.sites[added.websiteId]!, name: 'Only' } }));
    expect(Object.values((await reopened.read('ws_a'))!.sites).map((s) => s.name)).toEqual(['Only']);
    const again = await Store.open(dir);
    expect(Object.values((await again.read('ws_a'))!.sites).map((s) => s.name)).toEqual(['Only']);
    // A site id that cannot name a file is refused like any document that cannot be stored, and nothing is kept.
    await expect(again.transact('ws_a', (ws) => void (ws.sites['../x'] = added))).rejects.toThrow(/cannot name a file/);
    expect(Object.keys((await again.read('ws_a'))!.sites)).toEqual([added.websiteId]);
  });

  it('rule:store-durable-commit rule:store-lookups-with-document rule:company-creation-atomic — a crash at any write of a commit of several documents leaves all of it or none', async () => {
    // The commit: a site edited, a site added with its lookup entry, the workspace changed, a company created.
    let addedId = '';
    const commit = (store: Store) =>
      store.transact('ws_a', async (ws, tx) => {
        const [first] = Object.keys(ws.sites);
        ws.sites[first!]!.name = 'Edited';
        const added = site('Added');
        addedId = added.websiteId;
        ws.sites[added.websiteId] = added;
        tx.index('site', added.websiteId);
        ws.credits = 1;
        await createCompany(store, tx, ws, 'plan_1', 'New Co', 'u1', new Date(0));
      });
    const companyId = companyIdForPlan('ws_a', 'plan_1');
    // A clean run counts the commit's writes.
    const { store: counting, control: counted } = await instrumented();
    await counting.create(workspace('ws_a', 2));
    counted.armed = true;
    await commit(counting);
    const writes = counted.count;
    expect(writes, 'the intent file, the lookup, the company, two sites, the workspace').toBeGreaterThanOrEqual(6);

    for (let failAt = 0; failAt < writes; failAt++) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      const { store, control } = await instrumented();
      await store.create(workspace('ws_a', 2));
      control.armed = true;
      control.failAt = failAt;
      const outcome = await commit(store).then(() => 'acknowledged', (error: Error) => error.message);
      // The process dies here: whatever it did not write stays unwritten. The directory is reopened.
      const reopened = await Store.open(dir);
      const ws = (await reopened.read('ws_a'))!;
      const company = await reopened.read(companyId);
      const lookup = await reopened.lookupDirectory('site', addedId);
      if (failAt === 0) {
        // Stopped before its intent file: refused, and none of it on the disk.
        expect(outcome).toMatch(/crash at write 0/);
        expect(ws.credits, `crash at write ${failAt}`).toBe(5);
        expect(Object.values(ws.sites).map((s) => s.name)).toEqual(['Site 0', 'Site 1']);
        expect(company).toBeUndefined();
        expect(lookup).toBeUndefined();
      } else {
        // Past its intent file: committed, acknowledged, and all of it there after the replay.
        expect(outcome, `crash at write ${failAt}`).toBe('acknowledged');
        expect(ws.credits, `crash at write ${failAt}`).toBe(1);
        expect(Object.values(ws.sites).map((s) => s.name)).toEqual(['Edited', 'Site 1', 'Added']);
        expect(company?.companyName).toBe('New Co');
        expect(lookup).toBe('ws_a');
      }
      expect(await readdir(join(dir, 'journal')), 'the intent file is gone once replayed').toEqual([]);
      expect(await storedWorkspace(dir, 'ws_a')).toEqual(JSON.parse(JSON.stringify(ws)));
    }
  });

  it('rule:store-durable-commit — a committed write whose files failed is applied before the next write of its workspace, never overwritten by a replay', async () => {
    const { store, control } = await instrumented();
    const doc = workspace('ws_a', 1);
    await store.create(doc);
    const [only] = Object.keys(doc.sites);
    control.armed = true;
    control.failAt = 1; // the first file after the intent file
    await store.transact('ws_a', (ws) => {
      ws.sites[only!]!.name = 'First';
      ws.credits = 2;
    });
    expect((await store.read('ws_a'))!.credits).toBe(2);
    expect(await readdir(join(dir, 'journal')), 'kept for the retry').toHaveLength(1);
    // The next write of the workspace applies it first; its own single-document write then lands on top.
    await store.transact('ws_a', (ws) => void (ws.sites[only!]!.name = 'Second'));
    expect(await readdir(join(dir, 'journal'))).toEqual([]);
    const onDisk = await storedWorkspace(dir, 'ws_a');
    expect(onDisk.credits).toBe(2);
    expect(onDisk.sites[only!]!.name).toBe('Second');
    expect((await (await Store.open(dir)).read('ws_a'))!.sites[only!]!.name).toBe('Second');
  });

  it('converts a data directory of the old layout (one document per workspace) at open, and a migration a crash interrupted is redone', async () => {
    const old = workspace('ws_old', 3);
    const other = workspace('ws_other', 0);
    await mkdir(join(dir, 'workspaces'), { recursive: true });
    await mkdir(join(dir, 'directory'), { recursive: true });
    await writeFile(join(dir, 'workspaces', 'ws_old.json'), JSON.stringify(old));
    await writeFile(join(dir, 'workspaces', 'ws_other.json'), JSON.stringify(other));
    await writeFile(join(dir, 'directory', `site-${Buffer.from(Object.keys(old.sites)[0]!).toString('base64url')}`), 'ws_old');
    // A crash during an earlier attempt left a half-written staging directory.
    await mkdir(join(dir, 'workspaces', 'ws_old.migrating', 'sites'), { recursive: true });
    await writeFile(join(dir, 'workspaces', 'ws_old.migrating', 'sites', 'torn.json'), '{"to');
    // And a crash after the rename of another one left its old file beside the new directory.
    const done = workspace('ws_done', 1);
    await mkdir(join(dir, 'workspaces', 'ws_done', 'sites'), { recursive: true });
    const [doneSite] = Object.keys(done.sites);
    await writeFile(join(dir, 'workspaces', 'ws_done', 'sites', `${doneSite}.json`), JSON.stringify(done.sites[doneSite!]));
    await writeFile(join(dir, 'workspaces', 'ws_done', 'workspace.json'), JSON.stringify({ ...done, sites: [doneSite], companyName: 'Converted' }));
    await writeFile(join(dir, 'workspaces', 'ws_done.json'), JSON.stringify(done));

    const store = await Store.open(dir);
    expect((await readdir(join(dir, 'workspaces'))).sort()).toEqual(['ws_done', 'ws_old', 'ws_other']);
    expect(await store.read('ws_old')).toEqual(JSON.parse(JSON.stringify(old)));
    expect(await store.read('ws_other')).toEqual(JSON.parse(JSON.stringify(other)));
    expect((await store.read('ws_done'))!.companyName, 'the converted directory wins over the old file').toBe('Converted');
    expect(await storedWorkspace(dir, 'ws_old')).toEqual(JSON.parse(JSON.stringify(old)));
    expect(await store.lookupDirectory('site', Object.keys(old.sites)[0]!)).toBe('ws_old');
    // Converted once: a second open changes nothing, and writes go to the new documents.
    await store.transact('ws_old', (ws) => void (ws.credits = 9));
    const reopened = await Store.open(dir);
    expect((await reopened.read('ws_old'))!.credits).toBe(9);
    expect(Object.keys((await reopened.read('ws_old'))!.sites)).toEqual(Object.keys(old.sites));
    expect(JSON.parse(await readFile(join(dir, 'workspaces', 'ws_old', 'workspace.json'), 'utf8')).sites).toEqual(Object.keys(old.sites));
  });
});
