// The import's asset pipeline and what a new import builds (reference/domain/import-merge.ts fetchAssets,
// importSnapshot; §4.3 rules import-site-assets-revalidated, import-site-new-draft, import-merge-restore-point): the
// asset cap, the answers that skip an asset and why, what is kept of one, images inside section content (re-pointed,
// or left out with their gallery item or image section), what a new site takes from a snapshot field by field, the
// restore points of a merge, and the creator and site-limit checks of a new import. The features check these
// black-box on a few fields; these pin the rest.
//
// Most tests inject a fake `net` (AGENTS.md "Seams for tests"). The first block runs the real path: the real
// resolver and the pinned HTTP transport against a loopback server, reached through the test-only allowOrigins.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAssets, importSnapshot, type ImportServices } from '../domain/import-merge.js';
import type { PortableSite } from '../domain/portable-site.js';
import type { TransportOptions } from '../infra/safe-fetch.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import { newSite } from '../domain/site.js';
import type { Network } from '../infra/safe-fetch.js';
import type { Store } from '../infra/store/store.js';
import { asyncRefusal } from './domain-refusal.js';
import { limits } from '../catalogue.js';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const CAP = 5 * 1024 * 1024;

describe('fetchAssets over the real transport (loopback server) rule:import-site-assets-revalidated', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (req.url === '/moved') res.writeHead(302, { location: '/logo.png' }).end();
      else if (req.url === '/big.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(CAP + 1));
      else if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps an image (at the address it was fetched from, after redirects) and skips a 404, a page and a body over 5 MiB', async () => {
    const { kept, skipped } = await fetchAssets([
      { key: 'logo', url: `${origin}/moved`, alt: 'Logo' },
      { key: 'gone', url: `${origin}/missing.png` },
      { key: 'page', url: `${origin}/page` },
      { key: 'big', url: `${origin}/big.png` },
    ], { allowOrigins: [origin] });
    expect(kept).toEqual([{ assetId: expect.stringMatching(/^asset_/), key: 'logo', url: `${origin}/logo.png`, alt: 'Logo', kind: 'image' }]);
    expect(skipped).toEqual([
      { url: `${origin}/missing.png`, reason: 'HTTP 404' },
      { url: `${origin}/page`, reason: 'not an image (text/html)' },
      { url: `${origin}/big.png`, reason: `response over ${CAP} bytes` },
    ]);
  });
});

type Answer = { status?: number; type?: string; location?: string } | Error;

/** A fake public web: every host ending in .example resolves to a public address; `answers` by URL, else 404. */
function fakeNet(answers: Record<string, Answer> = {}) {
  const calls: { url: string; options: TransportOptions }[] = [];
  const net: Network = {
    resolve: async (host) => (host.endsWith('.example') ? ['93.184.216.34'] : []),
    transport: async (url, _address, options) => {
      calls.push({ url: url.href, options });
      const answer = answers[url.href];
      if (answer instanceof Error) throw answer;
      if (!answer) return { status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from('no') };
      return { status: answer.status ?? 200, headers: { 'content-type': answer.type ?? 'image/png', location: answer.location }, body: PNG };
    },
  };
  return { net, calls };
}

const img = (name: string) => `https://cdn.example/${name}`;
/** The asset id of the n-th copy the services below keep: derived from where the copy is kept. */
const copyId = (n: number) => `image-${createHash('sha256').update(`https://files.test/${n}`).digest('hex').slice(0, 24)}`;

describe('fetchAssets rule:import-site-assets-revalidated', () => {
  it('fetches with the asset caps (5 MiB, 5 s) and keeps key, fetched URL, alt and kind; alt defaults to empty, kind to image', async () => {
    const { net, calls } = fakeNet({ [img('a.png')]: {}, [img('doc.pdf')]: { type: 'application/pdf' } });
    const { kept, skipped } = await fetchAssets([{ key: 'a', url: img('a.png') }, { key: 'doc', url: img('doc.pdf'), alt: 'Menu', kind: 'file' }], net);
    expect(skipped).toEqual([]);
    expect(kept).toEqual([
      { assetId: expect.stringMatching(/^asset_/), key: 'a', url: img('a.png'), alt: '', kind: 'image' },
      { assetId: expect.stringMatching(/^asset_/), key: 'doc', url: img('doc.pdf'), alt: 'Menu', kind: 'file' },
    ]);
    expect(kept[0]!.assetId).not.toBe(kept[1]!.assetId);
    // Each fetch carries its own deadline's signal (rule migrate-crawl-work-bounded).
    const asset = { maxBytes: CAP, timeoutMs: 5000, signal: expect.any(AbortSignal), addresses: ['93.184.216.34'] };
    expect(calls.map((c) => c.options)).toEqual([asset, asset]);
  });

  it('follows at most three redirects', async () => {
    const hops = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [img(`${prefix}${i}`), { status: 301, location: img(`${prefix}${i + 1}`) }]));
    const { net } = fakeNet({ ...hops(3, 'three'), [img('three3')]: {}, ...hops(4, 'four'), [img('four4')]: {} });
    const { kept, skipped } = await fetchAssets([{ key: 'three', url: img('three0') }, { key: 'four', url: img('four0') }], net);
    expect(kept.map((a) => [a.key, a.url])).toEqual([['three', img('three3')]]);
    expect(skipped).toEqual([{ url: img('four0'), reason: 'too many redirects' }]);
  });

  it('takes the first 50 assets and skips the rest unfetched, naming the cap', async () => {
    const assets = Array.from({ length: 52 }, (_, i) => ({ key: `k${i}`, url: img(`${i}.png`) }));
    const { net, calls } = fakeNet(Object.fromEntries(assets.map((a) => [a.url, {}])));
    const { kept, skipped } = await fetchAssets(assets, net);
    expect(kept.map((a) => a.key)).toEqual(assets.slice(0, 50).map((a) => a.key));
    expect(skipped).toEqual([{ url: img('50.png'), reason: 'over the 50-asset cap' }, { url: img('51.png'), reason: 'over the 50-asset cap' }]);
    expect(calls).toHaveLength(50);
  });

  it('keeps every image type and nothing else unless the asset is a file; names the type, or its absence', async () => {
    const types = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml', 'image/png; charset=binary'];
    const refused = ['text/html', 'image/bmp', 'image/svgxml', 'image/svg', 'text/image/png', 'application/octet-stream', ''];
    const answers: Record<string, Answer> = {};
    [...types, ...refused].forEach((type, i) => (answers[img(`t${i}`)] = { type }));
    const { net } = fakeNet(answers);
    const { kept, skipped } = await fetchAssets([...types, ...refused].map((_, i) => ({ key: `t${i}`, url: img(`t${i}`) })), net);
    expect(kept.map((a) => a.key)).toEqual(types.map((_, i) => `t${i}`));
    expect(skipped).toEqual(refused.map((type, i) => ({ url: img(`t${types.length + i}`), reason: `not an image (${type || 'no type'})` })));
  });

  it('skips an answer other than 200, an unsafe address with the pipeline\'s reason, and a failure that is not the pipeline\'s as unfetchable', async () => {
    const { net } = fakeNet({ [img('gone')]: { status: 404 }, [img('empty')]: { status: 204 }, [img('boom')]: new Error('socket hang up') });
    const { kept, skipped } = await fetchAssets([
      { key: 'gone', url: img('gone') },
      { key: 'empty', url: img('empty') },
      { key: 'meta', url: 'https://169.254.169.254/latest/meta-data' },
      { key: 'boom', url: img('boom') },
    ], net);
    expect(kept).toEqual([]);
    expect(skipped).toEqual([
      { url: img('gone'), reason: 'HTTP 404' },
      { url: img('empty'), reason: 'HTTP 204' },
      { url: 'https://169.254.169.254/latest/meta-data', reason: 'the host resolves to a non-public address (169.254.169.254)' },
      { url: img('boom'), reason: 'could not be fetched' },
    ]);
  });
});

// --- importSnapshot: a workspace and a store that runs the transaction on it ---

const NOW = new Date('2026-11-23T08:00:00.000Z');
const OWNER = 'user_owner';

function workspace(sites: Site[] = [], plan: WorkspaceDoc['plan'] = 'business'): WorkspaceDoc {
  return { id: 'ws_1', plan, ownerUserId: OWNER, sites: Object.fromEntries(sites.map((s) => [s.websiteId, s])) } as unknown as WorkspaceDoc;
}

function connection(createdBy = OWNER, extra: Partial<Connection> = {}): Connection {
  return { connectionId: 'conn_1', kind: 'api-token', createdBy, reach: 'workspace', websiteId: null, scopes: ['content:write'], ...extra } as Connection;
}

/** Services whose store runs each transaction on `fresh` (the workspace as the commit sees it) and records it. */
function services(fresh: WorkspaceDoc, net: Network, siteLimit = 5) {
  const indexed: [string, string][] = [];
  let transactions = 0;
  const store = {
    transact: async (id: string, operation: (doc: WorkspaceDoc, tx: { index(kind: string, key: string): void }) => unknown) => {
      expect(id).toBe(fresh.id);
      transactions += 1;
      return operation(fresh, { index: (kind, key) => indexed.push([kind, key]) });
    },
  } as unknown as Store;
  // Kept copies (rule portable-site-assets-carried): the n-th copy is served at files.test/n.
  const copies: { body: Buffer; contentType: string }[] = [];
  const assetFiles = { keep: async (body: Buffer, contentType: string) => `https://files.test/${copies.push({ body, contentType })}` };
  const svc: ImportServices = { store, net, assetFiles, limits: { siteLimitByPlan: { business: siteLimit }, restorePoints: limits.restorePoints } };
  return { svc, indexed, copies, transactions: () => transactions };
}

const snapshotOf = (extra: Partial<PortableSite> = {}): PortableSite =>
  ({ format: 'PortableSiteV1', site: { name: 'Rosa' }, pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Hi' } }] }], ...extra }) as PortableSite;

describe('importSnapshot: a new site, field by field rule:import-site-new-draft rule:portable-site-round-trip', () => {
  it('takes name, business name, fonts, theme, pages with their bases, assets, redirects, collections, services, contact and analytics; records the change', async () => {
    const fresh = workspace();
    const { net } = fakeNet({ [img('logo.png')]: {} });
    const { svc, indexed, copies } = services(fresh, net);
    const fonts = [{ role: 'heading' as const, family: 'Lora' }, { role: 'body' as const, family: 'Lato' }];
    const snapshot = snapshotOf({
      site: { name: 'Rosa', businessName: "Rosa's Bakery" },
      fonts,
      theme: { colors: { primary: '#123456' }, style: 'warm' },
      assets: [{ key: 'logo', url: img('logo.png'), alt: 'Logo' }],
      redirects: [{ from: '/old', to: '/', permanent: true }],
      collections: [{ key: 'menu', name: 'Menu', items: [{ name: 'Bread' }] }],
      services: [{ key: 's1', name: 'Cake', description: 'Layered', price: { amount: 3000, currency: 'EUR' }, durationMinutes: 0 }, { key: 's2', name: 'Advice' }],
      contact: { businessName: "Rosa's Bakery", email: 'hello@rosa.example' },
      analytics: { googleAnalyticsId: 'G-123' },
    } as Partial<PortableSite>);
    let completed: Site | undefined;
    const outcome = await importSnapshot(svc, fresh, connection(), snapshot, { completeNewSite: (s) => (completed = s) }, NOW);
    expect(outcome).toEqual({ merged: false, websiteId: expect.stringMatching(/^site_/), assetsSkipped: [], summary: 'site imported (1 pages, 0 assets skipped)' });
    const site = fresh.sites[outcome.websiteId]!;
    expect(completed).toBe(site);
    expect(indexed).toEqual([['site', site.websiteId]]);
    expect(site).toMatchObject({ name: 'Rosa', businessName: "Rosa's Bakery", members: { [OWNER]: 'owner' }, createdAt: NOW.toISOString(), published: null });
    expect(site.draft.fonts).toEqual(fonts);
    expect(site.draft.fonts).not.toBe(fonts);
    expect(site.brand.colors).toEqual({ ...newSite({ name: 'x', businessName: 'x', members: {}, now: NOW }).brand.colors, primary: '#123456' });
    expect(site.brand.style).toBe('warm');
    expect(site.draft.pages).toHaveLength(1);
    const hero = site.draft.pages[0]!.sections[0]!;
    expect(hero).toMatchObject({ key: 'hero', type: 'hero', content: { heading: 'Hi' } });
    expect(site.syncBases).toEqual({ [hero.sectionId]: { heading: 'Hi' } });
    // The fetched copy, never the source URL (rules import-site-assets-revalidated, portable-site-assets-carried).
    expect(site.draft.assets).toEqual([{ assetId: expect.stringMatching(/^asset_/), key: 'logo', url: 'https://files.test/1', alt: 'Logo', kind: 'image', bytes: PNG.length }]);
    expect(copies).toEqual([{ body: PNG, contentType: 'image/png' }]);
    expect(site.draft.redirects).toEqual([{ from: '/old', to: '/', permanent: true }]);
    expect(site.draft.collections).toEqual([{ key: 'menu', name: 'Menu', items: [{ name: 'Bread' }] }]);
    expect(site.records.services).toStrictEqual([
      { serviceId: expect.stringMatching(/^service_/), websiteId: site.websiteId, name: 'Cake', description: 'Layered', price: { amount: 3000, currency: 'EUR' }, durationMinutes: 0, status: 'draft', createdAt: NOW.toISOString() },
      { serviceId: expect.stringMatching(/^service_/), websiteId: site.websiteId, name: 'Advice', status: 'draft', createdAt: NOW.toISOString() },
    ]);
    expect(site.contact).toEqual({ businessName: "Rosa's Bakery", email: 'hello@rosa.example' });
    expect(site.analytics).toEqual({ googleAnalyticsId: 'G-123' });
    expect(site.siteRevision).toBe(1);
    expect(site.changes).toEqual([{ revision: 1, at: NOW.toISOString(), kind: 'import', summary: 'Site imported from a PortableSiteV1 snapshot' }]);
  });

  it('a snapshot that says only its name and pages keeps the new site\'s defaults: business name from the name, fonts, brand, empty lists', async () => {
    const fresh = workspace();
    const { svc } = services(fresh, fakeNet().net);
    const outcome = await importSnapshot(svc, fresh, connection(), snapshotOf(), {}, NOW);
    const site = fresh.sites[outcome.websiteId]!;
    const defaults = newSite({ name: 'Rosa', businessName: 'Rosa', members: {}, now: NOW });
    expect(site.businessName).toBe('Rosa');
    expect(site.contact).toEqual({ businessName: 'Rosa' });
    expect(site.analytics).toEqual({});
    expect(site.brand).toEqual(defaults.brand);
    expect(site.draft.fonts).toEqual(defaults.draft.fonts);
    expect(site.draft).toMatchObject({ assets: [], redirects: [], collections: [] });
    expect(site.records.services).toEqual([]);
  });

  it('reports the skipped assets in its summary', async () => {
    const fresh = workspace();
    const { svc } = services(fresh, fakeNet().net);
    const outcome = await importSnapshot(svc, fresh, connection(), snapshotOf({ assets: [{ key: 'a', url: img('a.png') }, { key: 'b', url: img('b.png') }], pages: [] } as Partial<PortableSite>), {}, NOW);
    expect(outcome.assetsSkipped).toEqual([{ url: img('a.png'), reason: 'HTTP 404' }, { url: img('b.png'), reason: 'HTTP 404' }]);
    expect(outcome.summary).toBe('site imported (0 pages, 2 assets skipped)');
  });
});

describe('importSnapshot: images inside section content rule:import-site-assets-revalidated rule:portable-site-blocks-carried', () => {
  const pages = () => [{
    key: 'home', title: 'Home', sections: [
      { externalKey: 'home/hero', type: 'hero', content: { heading: 'Kept' } },
      { externalKey: 'home/photo', type: 'image', content: { imageUrl: img('moved.png'), alt: 'Shop' } },
      { externalKey: 'home/bad-photo', type: 'image', content: { imageUrl: img('bad.png'), alt: 'Gone' } },
      { externalKey: 'home/asset-photo', type: 'image', content: { imageUrl: img('bad2.png'), imageAssetId: 'asset_own', alt: 'Own' } },
      { externalKey: 'home/gallery', type: 'gallery', content: { heading: 'G', images: [{ imageUrl: img('bad3.png'), alt: 'Bad' }, { imageUrl: img('ok.png'), alt: 'Ok' }] }, blocks: [
        { key: 'b1', type: 'image', content: { imageUrl: img('bad4.png'), alt: 'Block gone' } },
        { key: 'b2', type: 'gallery', content: { images: [{ imageUrl: img('ok2.png'), alt: 'Block ok' }, { imageUrl: img('bad5.png'), alt: 'Block bad' }] } },
      ] },
    ],
  }];

  it('names a kept image by the asset of its copy and adds it to the assets; leaves out a skipped image section, gallery item or block, keeps a skipped image that has an asset id', async () => {
    const fresh = workspace();
    const { net } = fakeNet({ [img('moved.png')]: { status: 302, location: img('final.png') }, [img('final.png')]: {}, [img('ok.png')]: {}, [img('ok2.png')]: {}, [img('logo.png')]: {} });
    const { svc } = services(fresh, net);
    const input = pages();
    const assets = [{ key: 'logo', url: img('logo.png') }, { key: 'listed-bad', url: img('listed-bad.png') }];
    const outcome = await importSnapshot(svc, fresh, connection(), snapshotOf({ pages: input, assets } as Partial<PortableSite>), {}, NOW);
    expect(outcome.assetsSkipped.map((s) => s.url)).toEqual(['listed-bad.png', 'bad.png', 'bad2.png', 'bad3.png', 'bad4.png', 'bad5.png'].map(img));
    const site = fresh.sites[outcome.websiteId]!;
    const sections = site.draft.pages[0]!.sections;
    expect(sections.map((s) => s.key)).toEqual(['hero', 'photo', 'asset-photo', 'gallery']);
    // Never the source URL (rule import-site-assets-revalidated): the content names the asset of the kept copy.
    expect(sections.map((s) => s.content)).toEqual([
      { heading: 'Kept' },
      { imageAssetId: copyId(2), alt: 'Shop' },
      { imageAssetId: 'asset_own', alt: 'Own' },
      { heading: 'G', images: [{ imageAssetId: copyId(3), alt: 'Ok' }] },
    ]);
    expect(sections[3]!.blocks).toEqual([{ key: 'b2', type: 'gallery', content: { images: [{ imageAssetId: copyId(4), alt: 'Block ok' }] } }]);
    // Content images join the site's assets after the listed ones, in order, keyed by their id, with their alt.
    expect(site.draft.assets.map(({ assetId, key, url, alt }) => ({ assetId, key, url, alt }))).toEqual([
      { assetId: expect.stringMatching(/^asset_/), key: 'logo', url: 'https://files.test/1', alt: '' },
      { assetId: copyId(2), key: copyId(2), url: 'https://files.test/2', alt: 'Shop' },
      { assetId: copyId(3), key: copyId(3), url: 'https://files.test/3', alt: 'Ok' },
      { assetId: copyId(4), key: copyId(4), url: 'https://files.test/4', alt: 'Block ok' },
    ]);
    // The snapshot the caller passed is not changed.
    expect(input).toEqual(pages());
  });

  it('with every image kept, only how images are named changes', async () => {
    const fresh = workspace();
    const { net } = fakeNet({ [img('a.png')]: { status: 301, location: img('a2.png') }, [img('a2.png')]: {} });
    const { svc } = services(fresh, net);
    const content = { heading: 'G', images: [{ imageUrl: img('a.png'), alt: 'A' }] };
    const outcome = await importSnapshot(svc, fresh, connection(), snapshotOf({ pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/g', type: 'gallery', content }] }] } as Partial<PortableSite>), {}, NOW);
    expect(outcome.assetsSkipped).toEqual([]);
    expect(fresh.sites[outcome.websiteId]!.draft.pages[0]!.sections[0]!.content).toEqual({ heading: 'G', images: [{ imageAssetId: copyId(1), alt: 'A' }] });
    expect(content.images[0]!.imageUrl).toBe(img('a.png'));
  });

  it('keeps one asset for an image named twice, and a merge adds it to the site once however often it is pushed', async () => {
    const site = newSite({ name: 'Rosa', businessName: 'Rosa', members: { [OWNER]: 'owner' }, now: NOW });
    // An asset of its own, so the merge has to tell the images it adds from the ones the site has.
    site.draft.assets = [{ assetId: 'asset_logo', key: 'logo', url: '/assets/logo.png', alt: 'Logo', kind: 'image' }];
    const fresh = workspace([site]);
    const { net } = fakeNet({ [img('same.png')]: {} });
    // A content-addressed store, as the server's is: the same bytes are one copy.
    const svc: ImportServices = { ...services(fresh, net).svc, assetFiles: { keep: async () => 'https://files.test/same' } };
    const twice = [{ key: 'home', title: 'Home', sections: [
      { externalKey: 'home/one', type: 'image', content: { imageUrl: img('same.png'), alt: 'One' } },
      { externalKey: 'home/two', type: 'image', content: { imageUrl: img('same.png'), alt: 'Two' } },
    ] }];
    const created = await importSnapshot(svc, fresh, connection(), snapshotOf({ pages: twice } as Partial<PortableSite>), {}, NOW);
    const copy = fresh.sites[created.websiteId]!;
    expect(copy.draft.assets.map((a) => a.key)).toEqual(['image-' + createHash('sha256').update('https://files.test/same').digest('hex').slice(0, 24)]);
    // The first holder's alt: a later one naming the same image does not replace the asset.
    expect(copy.draft.assets[0]!.alt).toBe('One');
    expect(copy.draft.pages[0]!.sections.map((s) => s.content.imageAssetId)).toEqual([copy.draft.assets[0]!.key, copy.draft.assets[0]!.key]);
    for (let i = 0; i < 2; i++) await importSnapshot(svc, fresh, connection(), snapshotOf({ pages: twice } as Partial<PortableSite>), { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(site.draft.assets.map((a) => a.key)).toEqual(['logo', copy.draft.assets[0]!.key]);
  });
});

describe('importSnapshot: the checks of a new import rule:import-site-new-draft rule:create-site-limit-twice', () => {
  it('refuses when the connection\'s creator owns nothing in the workspace, before any transaction', async () => {
    const fresh = workspace();
    const { svc, transactions } = services(fresh, fakeNet().net);
    const error = await asyncRefusal(() => importSnapshot(svc, fresh, connection('user_gone'), snapshotOf(), {}, NOW));
    expect(error.code).toBe('access_denied');
    expect(transactions()).toBe(0);
    expect(fresh.sites).toEqual({});
  });

  it('lets in a creator who owns a site of the workspace without owning the workspace', async () => {
    const theirs = newSite({ name: 'Theirs', businessName: 'Theirs', members: { user_site_owner: 'owner' }, now: NOW });
    const fresh = workspace([theirs]);
    const { svc } = services(fresh, fakeNet().net);
    const outcome = await importSnapshot(svc, fresh, connection('user_site_owner'), snapshotOf(), {}, NOW);
    expect(fresh.sites[outcome.websiteId]!.members).toEqual({ user_site_owner: 'owner' });
  });

  it('refuses past the plan\'s site limit before the transaction, and again inside it', async () => {
    const one = newSite({ name: 'One', businessName: 'One', members: { [OWNER]: 'owner' }, now: NOW });
    const full = workspace([one]);
    const before = services(full, fakeNet().net, 1);
    expect((await asyncRefusal(() => importSnapshot(before.svc, full, connection(), snapshotOf(), {}, NOW))).code).toBe('site_limit_reached');
    expect(before.transactions()).toBe(0);
    // The gate saw room; the commit sees the last slot taken meanwhile.
    const fresh = workspace([one]);
    const inside = services(fresh, fakeNet().net, 1);
    expect((await asyncRefusal(() => importSnapshot(inside.svc, workspace(), connection(), snapshotOf(), {}, NOW))).code).toBe('site_limit_reached');
    expect(inside.transactions()).toBe(1);
    expect(Object.keys(fresh.sites)).toEqual([one.websiteId]);
  });
});

describe('importSnapshot: a merge rule:import-merge-restore-point rule:import-merge-never-touches-config', () => {
  function target(restorePoints: number) {
    const site = newSite({ name: 'Main', businessName: 'Main', members: { [OWNER]: 'owner' }, now: NOW });
    site.draft.pages = [{ pageId: 'page_1', key: 'home', slug: 'home', title: 'Home', kind: 'page', hidden: false, seo: { title: 'Home', description: '' }, sections: [{ sectionId: 'sec_1', key: 'hero', type: 'hero', content: { heading: 'Before' }, layout: {}, rev: 2, hidden: false, blocks: [] }] }] as Site['draft']['pages'];
    site.restorePoints = Array.from({ length: restorePoints }, (_, i) => ({ restorePointId: `restore_old${i}`, createdAt: NOW.toISOString(), draft: structuredClone(site.draft) }));
    return site;
  }

  it('takes a restore point of the draft before merging, keeps the newest five, records the change and reports the counts', async () => {
    const site = target(5);
    const fresh = workspace([site]);
    const { net } = fakeNet();
    const { svc, indexed } = services(fresh, net);
    const snapshot = snapshotOf({
      site: { name: 'Renamed', businessName: 'Renamed Ltd' }, theme: { style: 'bold' }, fonts: [{ role: 'heading', family: 'Lora' }],
      assets: [{ key: 'a', url: img('a.png') }],
      pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'After' } }, { externalKey: 'home/intro', type: 'text', content: { body: 'New' } }] }],
    } as Partial<PortableSite>);
    const outcome = await importSnapshot(svc, fresh, connection(), snapshot, { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(outcome).toEqual({
      merged: true, websiteId: site.websiteId, restorePointId: expect.stringMatching(/^restore_/), inserted: ['home/intro'], updated: ['home/hero'], keptFields: [],
      assetsSkipped: [{ url: img('a.png'), reason: 'HTTP 404' }], summary: 'import merged (1 updated, 1 inserted, 0 kept)',
    });
    expect(indexed).toEqual([]);
    const points = site.restorePoints;
    expect(points.map((p) => p.restorePointId)).toEqual(['restore_old1', 'restore_old2', 'restore_old3', 'restore_old4', outcome.merged ? outcome.restorePointId : '']);
    expect(points[4]!.createdAt).toBe(NOW.toISOString());
    expect(points[4]!.draft.pages[0]!.sections.map((s) => s.content)).toEqual([{ heading: 'Before' }]);
    expect(site.draft.pages[0]!.sections.map((s) => s.content)).toEqual([{ heading: 'After' }, { body: 'New' }]);
    expect(site.changes.at(-1)).toEqual({ revision: 1, at: NOW.toISOString(), kind: 'import-merge', summary: 'Import merged: 1 sections updated, 1 inserted' });
    // Configuration, theme and fonts stay the site's own.
    expect(site).toMatchObject({ name: 'Main', businessName: 'Main', brand: { style: 'clean' } });
    expect(site.draft.fonts).toEqual(newSite({ name: 'x', businessName: 'x', members: {}, now: NOW }).draft.fonts);
  });

  it('a site with fewer restore points keeps them all and adds one', async () => {
    const site = target(2);
    const fresh = workspace([site]);
    const { svc } = services(fresh, fakeNet().net);
    await importSnapshot(svc, fresh, connection(), snapshotOf(), { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(site.restorePoints.map((p) => p.restorePointId)).toEqual(['restore_old0', 'restore_old1', expect.stringMatching(/^restore_/)]);
  });

  it('merges by the forced keys it is given', async () => {
    const site = target(0);
    site.appEdits = { sec_1: ['heading'] };
    const fresh = workspace([site]);
    const { svc } = services(fresh, fakeNet().net);
    const kept = await importSnapshot(svc, fresh, connection(), snapshotOf(), { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(kept.merged && kept.keptFields).toEqual([{ key: 'home/hero', field: 'heading', appValue: 'Before', pushedValue: 'Hi' }]);
    expect(kept.summary).toBe('import merged (1 updated, 0 inserted, 1 kept)');
    await importSnapshot(svc, fresh, connection(), snapshotOf(), { mergeIntoWebsiteId: site.websiteId, forceKeys: ['home/hero#heading'] }, NOW);
    expect(site.draft.pages[0]!.sections[0]!.content).toEqual({ heading: 'Hi' });
  });

  it('rule:import-merge-adds-assets — adds the listed assets it kept whose key the site lacks, keeps the site\'s under a key it has, removes none, and adds nothing the second time', async () => {
    const site = target(0);
    const own = [
      { assetId: 'asset_logo', key: 'logo', url: '/assets/logo.png', alt: 'Our logo', kind: 'image' as const },
      { assetId: 'asset_menu', key: 'menu', url: '/assets/menu.bin', alt: 'Menu', kind: 'file' as const },
    ];
    site.draft.assets = structuredClone(own);
    const fresh = workspace([site]);
    const { net } = fakeNet({ [img('logo2.png')]: {}, [img('loaf.png')]: {}, [img('doc.pdf')]: { type: 'application/pdf' } });
    const { svc, copies } = services(fresh, net);
    const snapshot = snapshotOf({ assets: [
      { key: 'logo', url: img('logo2.png'), alt: 'Pushed logo' }, // the site has "logo": its own stays
      { key: 'loaf', url: img('loaf.png'), alt: 'A loaf' },
      { key: 'gone', url: img('gone.png'), alt: 'Skipped' }, // 404: skipped, nothing added
      { key: 'doc', url: img('doc.pdf'), alt: 'Price list', kind: 'file' },
      { key: 'loaf', url: img('loaf.png'), alt: 'Listed twice' }, // the first of a key is the one added
    ] } as Partial<PortableSite>);
    const outcome = await importSnapshot(svc, fresh, connection(), snapshot, { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(outcome.assetsSkipped).toEqual([{ url: img('gone.png'), reason: 'HTTP 404' }]);
    expect(copies).toHaveLength(4); // every fetched asset kept, whether the merge adds it or not
    const added = [
      { assetId: expect.stringMatching(/^asset_/), key: 'loaf', url: 'https://files.test/2', alt: 'A loaf', kind: 'image', bytes: PNG.length },
      { assetId: expect.stringMatching(/^asset_/), key: 'doc', url: 'https://files.test/3', alt: 'Price list', kind: 'file', bytes: PNG.length },
    ];
    expect(site.draft.assets).toEqual([...own, ...added]);
    // The restore point holds the draft from before: the site's own assets only.
    expect(site.restorePoints.at(-1)!.draft.assets).toEqual(own);
    const afterFirst = structuredClone(site.draft.assets);
    await importSnapshot(svc, fresh, connection(), snapshot, { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(site.draft.assets).toEqual(afterFirst);
    // A snapshot without assets removes none.
    await importSnapshot(svc, fresh, connection(), snapshotOf(), { mergeIntoWebsiteId: site.websiteId }, NOW);
    expect(site.draft.assets).toEqual(afterFirst);
  });

  it('refuses a target the creator cannot edit', async () => {
    const site = target(0);
    site.members = { [OWNER]: 'viewer' };
    const fresh = workspace([site]);
    const { svc } = services(fresh, fakeNet().net);
    expect((await asyncRefusal(() => importSnapshot(svc, fresh, connection(), snapshotOf(), { mergeIntoWebsiteId: site.websiteId }, NOW))).code).toBe('access_denied');
    expect(site.restorePoints).toEqual([]);
  });
});
