// What an import leaves on disk (§7.3 "no partial write remains", §8 plan limits): nothing is
// fetched for an import the site limit or the merge target refuses (rule import-checks-before-fetch), a refused
// import removes the copies it wrote (rule import-refused-leaves-no-files), and a workspace's kept copies stay
// within its storage quota (rule import-assets-within-storage-quota). Kept copies are real files (DiskAssetFiles in
// a temporary directory); the web is a fake network (AGENTS.md "Seams for tests").
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSnapshot, SharedStorageBudgets, type ImportServices } from '../domain/import-merge.js';
import type { PortableSite } from '../domain/portable-site.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import { newSite } from '../domain/site.js';
import { storageUsed } from '../domain/workspace.js';
import { UnsafeUrlError } from '../infra/safe-fetch.js';
import type { Network } from '../infra/safe-fetch.js';
import type { Store } from '../infra/store/store.js';
import { AssetBatch, DiskAssetFiles } from '../infra/store/asset-files.js';
import { CaptureQueue } from '../domain/capture-queue.js';
import type { CaptureEngine } from '../infra/capture.js';
import type { Clock } from '../infra/clock.js';
import { asyncRefusal } from './domain-refusal.js';
import { limits } from '../catalogue.js';

const NOW = new Date('2026-11-23T08:00:00.000Z');
const OWNER = 'user_owner';
const MB = 1024 * 1024;

/** A fake public web: https://cdn.example/<n>.png answers `size` bytes of PNG, each body distinct. */
function fakeNet(size: number) {
  const calls: string[] = [];
  let served = 0;
  const net: Network = {
    resolve: async (host) => (host.endsWith('.example') ? ['93.184.216.34'] : []),
    transport: async (url, _address, options) => {
      calls.push(url.href);
      const body = Buffer.alloc(size, url.pathname);
      // As the real transport stops reading (safe-fetch.ts httpTransport).
      if (body.length > options.maxBytes) throw new UnsafeUrlError(`response over ${options.maxBytes} bytes`);
      served += body.length;
      return { status: 200, headers: { 'content-type': 'image/png' }, body };
    },
  };
  return { net, calls, served: () => served };
}

function workspace(sites: Site[] = [], plan: WorkspaceDoc['plan'] = 'business'): WorkspaceDoc {
  return { id: 'ws_1', plan, ownerUserId: OWNER, sites: Object.fromEntries(sites.map((s) => [s.websiteId, s])) } as unknown as WorkspaceDoc;
}

function connection(): Connection {
  return { connectionId: 'conn_1', kind: 'api-token', createdBy: OWNER, reach: 'workspace', websiteId: null, scopes: ['content:write'] } as Connection;
}

const site = (name: string) => newSite({ name, businessName: name, members: { [OWNER]: 'owner' }, now: NOW });

const snapshotWith = (assets: number): PortableSite =>
  ({
    format: 'PortableSiteV1',
    site: { name: 'Rosa' },
    pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Hi' } }] }],
    assets: Array.from({ length: assets }, (_, i) => ({ key: `a${i}`, url: `https://cdn.example/${i}.png` })),
  }) as PortableSite;

let dir: string;
let files: DiskAssetFiles;
const kept = async () => (await readdir(dir).catch(() => [])).filter((n) => !n.endsWith('.tmp'));

/** Services whose store runs each transaction on `fresh` (the workspace as the commit sees it). */
function services(fresh: WorkspaceDoc, net: Network, { siteLimit = 5, quota, storageBudgets }: { siteLimit?: number; quota?: number; storageBudgets?: SharedStorageBudgets } = {}): ImportServices {
  const store = { transact: async (_id: string, operation: (doc: WorkspaceDoc, tx: { index(): void }) => unknown) => operation(fresh, { index: () => undefined }) } as unknown as Store;
  return { store, net, assetFiles: files, ...(storageBudgets ? { storageBudgets } : {}), limits: { siteLimitByPlan: { business: siteLimit }, restorePoints: limits.restorePoints, ...(quota === undefined ? {} : { assetStorage: { perWorkspaceBytes: quota } }) } };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-storage-'));
  files = new DiskAssetFiles(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('an import refused by the site limit or its merge target (rule import-checks-before-fetch)', () => {
  it('rule:import-checks-before-fetch — fetches and keeps nothing past the plan\'s site limit', async () => {
    const full = workspace([site('One')]);
    const { net, calls } = fakeNet(1000);
    const refused = await asyncRefusal(() => importSnapshot(services(full, net, { siteLimit: 1 }), full, connection(), snapshotWith(10), {}, NOW));
    expect(refused.code).toBe('site_limit_reached');
    expect(calls).toEqual([]);
    expect(await kept()).toEqual([]);
  });

  it('rule:import-checks-before-fetch — fetches nothing for a merge into a site out of reach', async () => {
    const ws = workspace([site('One')]);
    const { net, calls } = fakeNet(1000);
    const refused = await asyncRefusal(() => importSnapshot(services(ws, net), ws, connection(), snapshotWith(10), { mergeIntoWebsiteId: 'site_missing' }, NOW));
    expect(refused.code).toBe('not_found');
    expect(calls).toEqual([]);
  });
});

describe('an import refused after its fetches (rule import-refused-leaves-no-files)', () => {
  it('rule:import-refused-leaves-no-files — removes every copy it wrote, and keeps a file that was there before', async () => {
    // The bytes of asset 0 (as fakeNet serves them) were kept before, by something else: that file stays.
    const before = new AssetBatch();
    const url0 = await files.keep(Buffer.alloc(1000, '/0.png'), 'image/png', before);
    await files.settle(before, true);
    // The gate sees room; the commit sees the last slot taken meanwhile, so the transaction refuses.
    const fresh = workspace([site('One')]);
    const { net, calls } = fakeNet(1000);
    const refused = await asyncRefusal(() => importSnapshot(services(fresh, net, { siteLimit: 1 }), workspace(), connection(), snapshotWith(6), {}, NOW));
    expect(refused.code).toBe('site_limit_reached');
    expect(calls).toHaveLength(6);
    expect(await kept()).toEqual([url0.slice('/assets/'.length)]);
  });

  it('rule:import-refused-leaves-no-files — an import that commits keeps its copies', async () => {
    const fresh = workspace();
    const outcome = await importSnapshot(services(fresh, fakeNet(1000).net), fresh, connection(), snapshotWith(3), {}, NOW);
    expect(await kept()).toHaveLength(3);
    expect(fresh.sites[outcome.websiteId]!.draft.assets.map((a) => a.bytes)).toEqual([1000, 1000, 1000]);
  });

  it('rule:import-refused-leaves-no-files — of two imports of the same bytes, the refused one leaves the committed one\'s file', async () => {
    const fresh = workspace();
    const full = workspace([site('One')]);
    const [committed, refused] = await Promise.allSettled([
      importSnapshot(services(fresh, fakeNet(1000).net), fresh, connection(), snapshotWith(2), {}, NOW),
      importSnapshot(services(full, fakeNet(1000).net, { siteLimit: 1 }), workspace(), connection(), snapshotWith(2), {}, NOW),
    ]);
    expect(committed.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect(await kept()).toHaveLength(2);
  });
});

describe('a workspace\'s storage quota (rule import-assets-within-storage-quota)', () => {
  it('rule:import-assets-within-storage-quota — fetches and keeps no more than the quota, and says why the rest was skipped', async () => {
    const fresh = workspace();
    const { net, served } = fakeNet(MB);
    const outcome = await importSnapshot(services(fresh, net, { quota: 3 * MB }), fresh, connection(), snapshotWith(5), {}, NOW);
    expect(outcome.assetsSkipped).toEqual([3, 4].map((i) => ({ url: `https://cdn.example/${i}.png`, reason: "over the workspace's storage quota" })));
    expect(await kept()).toHaveLength(3);
    expect(storageUsed(fresh)).toBe(3 * MB);
    expect(served()).toBeLessThanOrEqual(3 * MB);
    // A merge into the full workspace adds nothing more.
    const merged = await importSnapshot(services(fresh, fakeNet(MB + 1).net, { quota: 3 * MB }), fresh, connection(), snapshotWith(2), { mergeIntoWebsiteId: outcome.websiteId }, NOW);
    expect(merged.assetsSkipped.map((s) => s.reason)).toEqual(["over the workspace's storage quota", "over the workspace's storage quota"]);
    expect(storageUsed(fresh)).toBe(3 * MB);
  });

  it('rule:import-assets-within-storage-quota — parallel imports of one workspace share one budget: together they fetch and keep no more than the quota', async () => {
    const fresh = workspace();
    const storageBudgets = new SharedStorageBudgets();
    const web = fakeNet(MB);
    // The finding: four imports at once, each reading the workspace as it was when it started.
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => importSnapshot(services(fresh, web.net, { quota: 3 * MB, storageBudgets }), fresh, connection(), snapshotWith(3), {}, NOW)));
    expect(web.served()).toBeLessThanOrEqual(3 * MB);
    expect(storageUsed(fresh)).toBe(3 * MB);
    expect(await kept()).toHaveLength(3);
    // None was refused: what did not fit was skipped, and each answer says why.
    expect(outcomes.flatMap((o) => o.assetsSkipped).filter((a) => a.reason === "over the workspace's storage quota")).toHaveLength(9);
    // The budget is the workspace's only while imports run: the next one reads what is kept now.
    const later = await importSnapshot(services(fresh, web.net, { quota: 3 * MB, storageBudgets }), fresh, connection(), snapshotWith(1), {}, NOW);
    expect(later.assetsSkipped.map((a) => a.reason)).toEqual(["over the workspace's storage quota"]);
  });

  it('rule:import-assets-within-storage-quota — refuses inside the transaction when another write took the room, and leaves no file', async () => {
    const taken = site('Taken');
    taken.draft.assets.push({ assetId: 'asset_x', key: 'x', url: '/assets/elsewhere.png', alt: '', kind: 'image', bytes: 3 * MB });
    const fresh = workspace([taken]);
    const refused = await asyncRefusal(() => importSnapshot(services(fresh, fakeNet(MB).net, { quota: 3 * MB }), workspace(), connection(), snapshotWith(2), {}, NOW));
    expect(refused.code).toBe('over_cap'); // the real store then rolls the transaction back (store.test.ts)
    expect(await kept()).toEqual([]);
  });

  it('rule:import-assets-within-storage-quota — the quota is spec/limits.json assetStorage.perWorkspaceBytes', async () => {
    const { loadLimits } = await import('../../spec/index.js');
    expect(loadLimits().assetStorage.perWorkspaceBytes).toBeGreaterThan(0);
  });
});

describe('a capture of the capture queue that keeps nothing (rule import-refused-leaves-no-files)', () => {
  it('rule:import-refused-leaves-no-files — a page edited while its images were fetched stays typed and leaves no file', async () => {
    const queued = site('Queued');
    queued.draft.pages = [{ pageId: 'page_1', key: 'home', slug: 'home', title: 'Home', kind: 'page', hidden: false, seo: { title: 'Home', description: '' }, capture: 'queued', sections: [{ sectionId: 'sec_1', key: 'hero', type: 'hero', content: { heading: 'Hi' }, layout: {}, rev: 0, hidden: false, blocks: [] }] }] as Site['draft']['pages'];
    queued.captureQueue = [{ pageKey: 'home', url: 'https://rosa.example/', siteOrigin: 'https://rosa.example', queuedAt: NOW.toISOString(), attempts: 0 }];
    const read = workspace([queued]);
    // What the commit sees: the owner edited the page meanwhile.
    const fresh = structuredClone(read);
    fresh.sites[queued.websiteId]!.draft.pages[0]!.sections[0]!.rev = 1;
    let committed = false;
    const store = {
      read: async () => (committed ? fresh : read),
      transact: async (_id: string, operation: (doc: WorkspaceDoc) => unknown) => {
        committed = true;
        return operation(fresh);
      },
    } as unknown as Store;
    const engine: CaptureEngine = {
      available: async () => true,
      capture: async (url) => ({ url, width: 1000, regions: [{ top: 0, height: 200, boxes: [{ kind: 'image', x: 0, y: 0, w: 100, h: 100, src: 'https://cdn.example/0.png', alt: 'Loaf' }] }] }),
      close: async () => undefined,
    };
    const { net, calls } = fakeNet(1000);
    const queue = new CaptureQueue({ store, engine, net, files, clock: { now: () => NOW } as unknown as Clock, limits: { assetStorage: { perWorkspaceBytes: 10 * MB } }, delayMs: 0 });
    queue.kick(read.id, 0);
    for (let i = 0; i < 200 && queue.busy; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await queue.stop();
    expect(calls).toEqual(['https://cdn.example/0.png']);
    expect(fresh.sites[queued.websiteId]!.draft.pages[0]!.capture).toBe('typed');
    expect(await kept()).toEqual([]);
  });
});
