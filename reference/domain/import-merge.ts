// Import (§4.3 import_site, and migrate_site_from_url after its crawl): a PortableSiteV1 snapshot becomes a new
// unpublished draft website, or is merged into an existing site by externalKey under the merge rules. Assets are
// fetched through the SSRF-hardened pipeline and skipped with a reason when unsafe or unfetchable; everything
// lands in one transaction or not at all. Who may merge or create is decided by authorize.ts.
import { createHash } from 'node:crypto';
import { newId } from './ids.js';
import type { Connection, Site, WorkspaceDoc } from './model.js';
import { newSite, recordChange } from './site.js';
import { isContentNode, validateSectionContent } from './section-content.js';
import { safeFetch, timeWithin, UnsafeUrlError } from '../infra/safe-fetch.js';
import { toPage, toSection, sectionKeyOf, type PortablePage, type PortableSite } from './portable-site.js';
import { checkCreatorOwnsWorkspace, checkMergeTarget } from './authorize.js';
import { checkSiteLimit, checkStorageQuota, storageUsed, type SiteLimits, type StorageLimits } from './workspace.js';
import type { Network } from '../infra/safe-fetch.js';
import type { Store } from '../infra/store/store.js';
import { AssetBatch, type AssetFiles } from '../infra/store/asset-files.js';
import { loadLimits } from '../../spec/index.js';

const ASSET_LIMITS = loadLimits().importAssets;

/**
 * Adds a restore point to `site` and drops the oldest past `limits` (rule import-merge-restore-point): at most `max`,
 * together at most `maxBytes` of JSON, the new one always kept. Each carries its size, so none is measured twice.
 */
export function keepRestorePoint(site: Site, point: Omit<Site['restorePoints'][number], 'bytes'>, limits: { max: number; maxBytes: number }): void {
  site.restorePoints.push({ ...point, bytes: Buffer.byteLength(JSON.stringify(point.draft)) });
  const sizeOf = (p: Site['restorePoints'][number]) => p.bytes ?? Buffer.byteLength(JSON.stringify(p.draft));
  let total = site.restorePoints.reduce((sum, p) => sum + sizeOf(p), 0);
  while (site.restorePoints.length > 1 && (site.restorePoints.length > limits.max || total > limits.maxBytes)) {
    const oldest = site.restorePoints.shift();
    if (oldest) total -= sizeOf(oldest);
  }
}

/** When the asset fetches of an import starting now must have ended (rule import-assets-time-bounded). */
export const assetsDeadline = () => Date.now() + ASSET_LIMITS.totalSeconds * 1000;

/** What one import has left for its asset fetches: its storage budget and the time its fetches must end by. */
export interface AssetKeeping {
  batch?: AssetBatch;
  budget?: StorageBudget;
  /** When the import's asset fetches must have ended (epoch ms; rule import-assets-time-bounded). */
  until?: number;
}

/** What one import may still add to its workspace's kept copies (rule import-assets-within-storage-quota). */
export interface StorageBudget {
  bytes: number;
}

const QUOTA_REASON = "over the workspace's storage quota";

/**
 * The storage budget the imports of one workspace running at once share (rule import-assets-within-storage-quota):
 * the first takes the quota less what the workspace keeps, and every fetch of any of them spends from it, so
 * parallel imports together fetch and keep no more than the quota left (each reading the workspace as it was when
 * it started would let four of them hold four times that on disk before three were refused). Bytes an import that
 * then failed had spent come back when the last of them ends.
 */
export class SharedStorageBudgets {
  #running = new Map<string, { budget: StorageBudget; imports: number }>();

  async share<T>(workspaceId: string, left: () => number, work: (budget: StorageBudget) => Promise<T>): Promise<T> {
    let entry = this.#running.get(workspaceId);
    if (!entry) this.#running.set(workspaceId, (entry = { budget: { bytes: left() }, imports: 0 }));
    entry.imports++;
    try {
      return await work(entry.budget);
    } finally {
      if (--entry.imports === 0) this.#running.delete(workspaceId);
    }
  }
}

/**
 * Fetches and re-validates every asset before the transaction; returns the kept ones and the skipped with reasons.
 * With `files`, a kept asset is the fetched copy: its URL is the one the server serves the kept bytes from, never
 * the source (rules import-site-assets-revalidated, portable-site-assets-carried); without, the fetched address.
 * With `batch`, each copy is the batch's until the caller settles it (rule import-refused-leaves-no-files); with
 * `budget`, no fetch may read more than the bytes the workspace has left: each reserves what it may read before it
 * starts and gives back what it did not keep.
 */
export async function fetchAssets(assets: NonNullable<PortableSite['assets']>, net: Network, files?: AssetFiles, { batch, budget, until }: AssetKeeping = {}) {
  const kept: Site['draft']['assets'] = [];
  const skipped: { url: string; reason: string }[] = [];
  for (const [i, asset] of assets.entries()) {
    if (i >= ASSET_LIMITS.maxAssets) {
      skipped.push({ url: asset.url, reason: `over the ${ASSET_LIMITS.maxAssets}-asset cap` });
      continue;
    }
    if (budget && budget.bytes <= 0) {
      skipped.push({ url: asset.url, reason: QUOTA_REASON });
      continue;
    }
    // One import's fetches share its time: a source that answers slowly spends it once, not once per asset.
    if (until !== undefined && until <= Date.now()) {
      skipped.push({ url: asset.url, reason: "the import's time for fetching assets ran out" });
      continue;
    }
    const maxBytes = budget ? Math.min(ASSET_LIMITS.maxBytes, budget.bytes) : ASSET_LIMITS.maxBytes;
    // Reserved before the fetch, the unused part given back after: imports sharing the budget (SharedStorageBudgets)
    // never read more than it holds between them, however their fetches interleave.
    if (budget) budget.bytes -= maxBytes;
    let res: Awaited<ReturnType<typeof safeFetch>>;
    try {
      res = await safeFetch(asset.url, { maxBytes, timeoutMs: timeWithin(ASSET_LIMITS.fetchSeconds * 1000, until), maxRedirects: 3, ...net });
      if (res.status !== 200) throw new UnsafeUrlError(`HTTP ${res.status}`);
      if (asset.kind !== 'file' && !/^image\/(png|jpeg|gif|webp|avif|svg\+xml)/.test(res.contentType)) throw new UnsafeUrlError(`not an image (${res.contentType || 'no type'})`);
    } catch (error) {
      if (budget) budget.bytes += maxBytes;
      const overBudget = error instanceof UnsafeUrlError && maxBytes < ASSET_LIMITS.maxBytes && error.message === `response over ${maxBytes} bytes`;
      skipped.push({ url: asset.url, reason: overBudget ? QUOTA_REASON : error instanceof UnsafeUrlError ? error.message : 'could not be fetched' });
      continue;
    }
    if (budget) budget.bytes += maxBytes - res.body.length;
    // Outside the try: a copy that cannot be kept (a disk failure) fails the import, it is not an asset to skip.
    const url = files ? await files.keep(res.body, res.contentType, batch) : res.url;
    kept.push({ assetId: newId('asset'), key: asset.key, url, alt: asset.alt ?? '', kind: asset.kind ?? 'image', ...(files ? { bytes: res.body.length } : {}) });
  }
  return { kept, skipped };
}

/** An object inside section content that names an image by URL, and that URL. */
interface ContentImage { holder: Record<string, unknown>; url: string }

/** Every object inside the sections' content that names an image by URL (an image section, gallery items, …). */
function contentImages(pages: PortablePage[]): ContentImage[] {
  const found: ContentImage[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isContentNode(value)) {
      if (typeof value.imageUrl === 'string') found.push({ holder: value, url: value.imageUrl });
      Object.values(value).forEach(walk);
    }
  };
  // Blocks are typed like sections, so their images go through the same pipeline (rule portable-site-blocks-carried).
  for (const page of pages) for (const section of page.sections) [section.content, ...(section.blocks ?? []).map((b) => b.content)].forEach(walk);
  return found;
}

/**
 * Sends every image URL inside section content through the same capped, re-validated pipeline as the listed
 * assets (rule import-site-assets-revalidated): a kept image joins the site's assets and the content names it by
 * that asset instead of its URL, so the site shows its own copy, never the source; a skipped one leaves the
 * content, with its gallery item, or with its whole image section when nothing else names the image, and is
 * reported in assetsSkipped. A kept image's asset id and key derive from where its copy is kept (the same image is
 * one asset, and pushing the same snapshot again changes nothing: rule import-merge-three-way). Returns the pages
 * to import and the kept images, once each.
 */
async function revalidateContentImages(pages: PortablePage[], net: Network, files: AssetFiles, keeping: AssetKeeping) {
  const copy = structuredClone(pages);
  const images = contentImages(copy);
  const fetched = await fetchAssets(images.map(({ holder, url }, i) => ({ key: `content-image-${i}`, url, alt: typeof holder.alt === 'string' ? holder.alt : '' })), net, files, keeping);
  const keptByKey = new Map(fetched.kept.map((a) => [a.key, { ...a, assetId: `image-${createHash('sha256').update(a.url).digest('hex').slice(0, 24)}` }]));
  const kept = new Map<string, Site['draft']['assets'][number]>();
  const dropped = new Set<unknown>();
  images.forEach(({ holder }, i) => {
    const asset = keptByKey.get(`content-image-${i}`);
    if (asset) {
      if (!kept.has(asset.assetId)) kept.set(asset.assetId, { ...asset, key: asset.assetId });
      holder.imageAssetId = asset.assetId;
      delete holder.imageUrl;
    } else if (holder.imageAssetId === undefined) dropped.add(holder);
    else delete holder.imageUrl;
  });
  const skipped = fetched.skipped;
  // Nothing dropped: the content was validated on the way in and only how images are named changed.
  if (dropped.size === 0) return { pages: copy, kept: [...kept.values()], skipped };
  const prune = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.filter((v) => !dropped.has(v)).map(prune);
    if (isContentNode(value)) pruneFields(value);
    return value;
  };
  /** Prunes each field of `node` in place and returns it, typed as it came. */
  function pruneFields<C extends Record<string, unknown>>(node: C): C {
    const fields: Record<string, unknown> = node;
    for (const [k, v] of Object.entries(node)) fields[k] = prune(v);
    return node;
  }
  // Defensive: with today's section schemas pruning leaves every section valid (an image section goes whole, a
  // gallery may have no images); a type that gains a minimum is left out here rather than stored invalid.
  const stillValid = (s: { type: string; content: Record<string, unknown> }) => {
    try {
      validateSectionContent(s.type, s.content);
      return true;
    } catch {
      return false;
    }
  };
  const keptParts = <T extends { type: string; content: Record<string, unknown> }>(parts: T[]): T[] =>
    parts.filter((s) => !dropped.has(s.content)).map((s) => ({ ...s, content: pruneFields(s.content) })).filter(stillValid);
  for (const page of copy) {
    page.sections = keptParts(page.sections).map((s) => (s.blocks ? { ...s, blocks: keptParts(s.blocks) } : s));
  }
  return { pages: copy, kept: [...kept.values()], skipped };
}

interface MergeReport { inserted: string[]; updated: string[]; keptFields: { key: string; field: string; appValue: unknown; pushedValue: unknown }[] }

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Remembers what was pushed into a section as the base of its next merge (rule import-merge-three-way). */
function rememberBase(site: Site, sectionId: string, pushed: Record<string, unknown>): void {
  site.syncBases ??= {};
  site.syncBases[sectionId] = { ...site.syncBases[sectionId], ...structuredClone(pushed) };
}

/**
 * One field of a matched section, merged three-way (rules import-merge-field-by-field, import-merge-three-way):
 * 'pushed' when the app left the field at its base (or already holds the pushed value), 'app' when only the
 * app changed it, 'conflict' when both did. Without a base (never pushed) an app edit counts as a change and
 * so does any pushed value that differs from it.
 */
function mergeField(f: { app: unknown; pushed: unknown; base: { value: unknown } | undefined; editedInApp: boolean }): 'pushed' | 'app' | 'conflict' {
  const appChanged = f.editedInApp && !(f.base && sameValue(f.app, f.base.value));
  if (!appChanged || sameValue(f.pushed, f.app)) return 'pushed';
  const pushChanged = !f.base || !sameValue(f.pushed, f.base.value);
  return pushChanged ? 'conflict' : 'app';
}

/**
 * Merges pushed pages into the site's draft (rules import-merge-*): sections match by externalKey; new ones
 * are inserted; a matched section merges field by field, three-way against the value last pushed (mergeField)
 * unless forced. Site configuration, theme and fonts are never touched.
 */
export function mergeDraft(site: Site, pages: PortablePage[], forceKeys: string[]): MergeReport {
  const report: MergeReport = { inserted: [], updated: [], keptFields: [] };
  const forced = new Set(forceKeys);
  for (const pushedPage of pages) {
    let page = site.draft.pages.find((p) => p.key === pushedPage.key);
    if (!page) {
      page = { ...toPage({ ...pushedPage, sections: [] }) };
      site.draft.pages.push(page);
    }
    for (const pushed of pushedPage.sections) {
      const sectionKey = sectionKeyOf(pushed.externalKey);
      const existing = page.sections.find((s) => s.key === sectionKey);
      if (!existing) {
        const inserted = toSection(pushed);
        page.sections.push(inserted);
        rememberBase(site, inserted.sectionId, pushed.content);
        report.inserted.push(pushed.externalKey);
        continue;
      }
      if (existing.type !== pushed.type && !forced.has(pushed.externalKey)) {
        report.keptFields.push({ key: pushed.externalKey, field: '(type)', appValue: existing.type, pushedValue: pushed.type });
        continue;
      }
      // The whole-section form <page>/<section> makes the pushed section win whole (rule import-merge-force-keys).
      const wholeForced = forced.has(pushed.externalKey);
      const edited = new Set(wholeForced ? [] : (site.appEdits[existing.sectionId] ?? []));
      const bases = site.syncBases?.[existing.sectionId] ?? {};
      const merged: Record<string, unknown> = wholeForced ? structuredClone(pushed.content) : structuredClone(existing.content);
      for (const [field, value] of Object.entries(wholeForced ? {} : pushed.content)) {
        const appValue = existing.content[field];
        const outcome = forced.has(`${pushed.externalKey}#${field}`)
          ? 'pushed'
          : mergeField({ app: appValue, pushed: value, base: field in bases ? { value: bases[field] } : undefined, editedInApp: edited.has(field) });
        if (outcome === 'pushed') {
          merged[field] = structuredClone(value);
          edited.delete(field); // the draft holds the pushed value again: the app's edit is merged away
        }
        if (outcome === 'conflict') report.keptFields.push({ key: pushed.externalKey, field, appValue, pushedValue: value });
      }
      validateSectionContent(existing.type === pushed.type ? existing.type : pushed.type, merged);
      existing.type = pushed.type;
      existing.content = merged;
      // No app editor changes blocks, so pushed blocks always win (nobody edited them in the app); a push
      // without blocks leaves the section's own (rule portable-site-blocks-carried).
      if (pushed.blocks) existing.blocks = structuredClone(pushed.blocks);
      existing.rev += 1;
      // App edits the push did not take over stay marked, pushed or not (rule import-merge-three-way).
      site.appEdits[existing.sectionId] = [...edited];
      if (wholeForced && site.syncBases) delete site.syncBases[existing.sectionId];
      rememberBase(site, existing.sectionId, pushed.content);
      report.updated.push(pushed.externalKey);
    }
  }
  return report;
}

/** What a new import takes besides pages: the site's identity, theme and fonts (never a merge's, see importInto). */
export function takeConfig(site: Site, snapshot: PortableSite): void {
  site.name = snapshot.site.name;
  site.businessName = snapshot.site.businessName ?? snapshot.site.name;
  if (snapshot.fonts) site.draft.fonts = structuredClone(snapshot.fonts);
  if (snapshot.theme?.colors) site.brand.colors = { ...site.brand.colors, ...snapshot.theme.colors };
  if (snapshot.theme?.style) site.brand.style = snapshot.theme.style;
}

function buildSite(snapshot: PortableSite, members: Site['members'], now: Date, assets: Site['draft']['assets']): Site {
  const businessName = snapshot.site.businessName ?? snapshot.site.name;
  const site = newSite({ name: snapshot.site.name, businessName, members, now });
  site.draft.pages = snapshot.pages.map(toPage);
  // What a new site was created from is the base of its first merge (rule import-merge-three-way).
  // toPage makes one page per snapshot page and one section per snapshot section, in order.
  site.draft.pages.forEach((page, p) =>
    page.sections.forEach((section, s) => {
      const pushed = snapshot.pages[p]?.sections[s];
      if (pushed) rememberBase(site, section.sectionId, pushed.content);
    }),
  );
  takeConfig(site, snapshot);
  site.draft.assets = assets;
  site.draft.redirects = structuredClone(snapshot.redirects ?? []);
  site.draft.collections = structuredClone(snapshot.collections ?? []);
  // Every field the snapshot gives a service, price and duration included (rule portable-site-round-trip).
  site.records.services = (snapshot.services ?? []).map((s) => ({
    serviceId: newId('service'),
    websiteId: site.websiteId,
    name: s.name,
    ...(s.description !== undefined ? { description: s.description } : {}),
    ...(s.price ? { price: structuredClone(s.price) } : {}),
    ...(s.durationMinutes !== undefined ? { durationMinutes: s.durationMinutes } : {}),
    status: 'draft',
    createdAt: now.toISOString(),
  }));
  if (snapshot.contact) site.contact = structuredClone(snapshot.contact);
  if (snapshot.analytics) site.analytics = structuredClone(snapshot.analytics);
  recordChange(site, now, 'import', 'Site imported from a PortableSiteV1 snapshot');
  return site;
}

/** What an import needs from the server: its store, its network, where kept assets go, and the plans' site limits. */
export interface ImportServices {
  store: Store;
  net: Network;
  assetFiles: AssetFiles;
  /** The budgets parallel imports of a workspace share; without, each import reads the quota left on its own. */
  storageBudgets?: SharedStorageBudgets;
  limits: SiteLimits & StorageLimits & { restorePoints: { max: number; maxBytes: number } };
}

/**
 * What an import checks before it fetches anything (rule import-checks-before-fetch): a new site's creator owns
 * the workspace and the plan's site limit has room; a merge's target is in the connection's reach and editable.
 * Each is checked again inside the transaction (the document may change meanwhile). migrate_site_from_url calls it
 * before its crawl.
 */
export function checkImportAllowed(limits: SiteLimits, ws: WorkspaceDoc, connection: Connection, mergeIntoWebsiteId: string | undefined): void {
  if (mergeIntoWebsiteId) {
    checkMergeTarget(ws, connection, mergeIntoWebsiteId);
    return;
  }
  checkCreatorOwnsWorkspace(ws, connection);
  checkSiteLimit(limits, ws);
}

export type ImportOutcome =
  | { merged: true; websiteId: string; restorePointId: string; inserted: string[]; updated: string[]; keptFields: MergeReport['keptFields']; assetsSkipped: { url: string; reason: string }[]; summary: string }
  | { merged: false; websiteId: string; assetsSkipped: { url: string; reason: string }[]; summary: string };

/**
 * Imports `snapshot` for `connection`: merged into `options.mergeIntoWebsiteId`, or as a new site. `summary` is the
 * PII-free activity note (rule activity-pii-free).
 */
export async function importSnapshot(
  services: ImportServices,
  ws: WorkspaceDoc,
  connection: Connection,
  snapshot: PortableSite,
  options: {
    mergeIntoWebsiteId?: string;
    forceKeys?: string[];
    /** When the caller's own time ends (a migration's, epoch ms): the asset fetches end by then too. */
    until?: number;
    /** Completes a new site inside the transaction that creates it (a migration's capture status and queue). */
    completeNewSite?: (site: Site) => void;
  },
  now: Date,
): Promise<ImportOutcome> {
  // Nothing is fetched for an import that would be refused anyway (rule import-checks-before-fetch).
  checkImportAllowed(services.limits, ws, connection, options.mergeIntoWebsiteId);
  const quota = services.limits.assetStorage?.perWorkspaceBytes;
  const run = async (budget: StorageBudget | undefined) => {
    const batch = new AssetBatch();
    let committed = false;
    try {
      const until = Math.min(assetsDeadline(), options.until ?? Infinity);
      const outcome = await fetchAndCommit(services, ws, connection, snapshot, options, now, { batch, until, ...(budget ? { budget } : {}) });
      committed = true;
      return outcome;
    } finally {
      // A refused or failed import leaves no copy it wrote (rule import-refused-leaves-no-files, §7.3).
      await services.assetFiles.settle?.(batch, committed);
    }
  };
  if (quota === undefined) return run(undefined);
  const left = () => quota - storageUsed(ws);
  return services.storageBudgets ? services.storageBudgets.share(ws.id, left, run) : run({ bytes: left() });
}

async function fetchAndCommit(
  services: ImportServices,
  ws: WorkspaceDoc,
  connection: Connection,
  snapshot: PortableSite,
  options: Parameters<typeof importSnapshot>[4],
  now: Date,
  keeping: AssetKeeping,
): Promise<ImportOutcome> {
  const listed = await fetchAssets(snapshot.assets ?? [], services.net, services.assetFiles, keeping);
  const inContent = await revalidateContentImages(snapshot.pages, services.net, services.assetFiles, keeping);
  snapshot = { ...snapshot, pages: inContent.pages };
  const kept = [...listed.kept, ...inContent.kept];
  const assetsSkipped = [...listed.skipped, ...inContent.skipped];
  if (options.mergeIntoWebsiteId) {
    const targetId = options.mergeIntoWebsiteId;
    const result = await services.store.transact(ws.id, (fresh) => {
      // In this connection's reach and editable by its creator (rule import-merge-needs-edit-access).
      const site = checkMergeTarget(fresh, connection, targetId);
      const usedBefore = storageUsed(fresh);
      const restorePointId = newId('restore');
      keepRestorePoint(site, { restorePointId, createdAt: now.toISOString(), draft: structuredClone(site.draft) }, services.limits.restorePoints);
      const report = mergeDraft(site, snapshot.pages, options.forceKeys ?? []);
      // The listed assets it kept whose key the site lacks (rule import-merge-adds-assets: matched by key, as
      // sections by externalKey; the site's own asset under a key stays, none is removed, so the same snapshot
      // pushed again adds nothing), then the images the merged content names by asset (revalidateContentImages),
      // each once.
      for (const asset of [...listed.kept, ...inContent.kept]) if (!site.draft.assets.some((a) => a.key === asset.key)) site.draft.assets.push(asset);
      checkStorageQuota(services.limits, usedBefore, fresh);
      // Site identity, theme and fonts are never merged (rule import-merge-never-touches-config).
      recordChange(site, now, 'import-merge', `Import merged: ${report.updated.length} sections updated, ${report.inserted.length} inserted`);
      return { websiteId: site.websiteId, restorePointId, ...report };
    });
    const summary = `import merged (${result.updated.length} updated, ${result.inserted.length} inserted, ${result.keptFields.length} kept)`;
    return { merged: true, ...result, assetsSkipped, summary };
  }
  const site = await services.store.transact(ws.id, (fresh, tx) => {
    checkSiteLimit(services.limits, fresh);
    const usedBefore = storageUsed(fresh);
    const created = buildSite(snapshot, { [connection.createdBy]: 'owner' }, now, kept);
    options.completeNewSite?.(created);
    fresh.sites[created.websiteId] = created;
    checkStorageQuota(services.limits, usedBefore, fresh);
    tx.index('site', created.websiteId); // committed with the site (rule store-lookups-with-document)
    return created;
  });
  return { merged: false, websiteId: site.websiteId, assetsSkipped, summary: `site imported (${snapshot.pages.length} pages, ${assetsSkipped.length} assets skipped)` };
}
