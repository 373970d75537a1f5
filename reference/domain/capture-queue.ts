// The capture queue (rule migrate-capture-allowance): pages a migration created typed beyond its capture allowance
// wait in their site's record (Site.captureQueue, so the queue survives a restart with the store) and an in-process
// worker captures them later, one page at a time: a page still as the migration left it gets its captured regions
// (the typed sections stay, hidden, as on a page captured during the migration); a page edited since stays typed.
// Its images go through the import's asset pipeline (fetchAssets). Status shows in list_pages (page.capture).
import type { Clock } from '../infra/clock.js';
import { CaptureUnavailableError, type CaptureEngine } from '../infra/capture.js';
import { CapturedAssets, capturedSections, slugOfPath } from './captured-page.js';
import { assetsDeadline, fetchAssets } from './import-merge.js';
import { AssetBatch, type AssetFiles } from '../infra/store/asset-files.js';
import { overStorageQuota, storageUsed, type StorageLimits } from './workspace.js';
import { toSection } from './portable-site.js';
import { recordChange } from './site.js';
import type { Network } from '../infra/safe-fetch.js';
import type { Store } from '../infra/store/store.js';

/** A page whose capture failed this many times stays typed. */
const MAX_ATTEMPTS = 3;
/** Pages one run captures before it yields to the next timer (bounds one run's time). */
const PAGES_PER_RUN = 25;
/** How long the worker waits before trying again when no browser could be started. */
const UNAVAILABLE_RETRY_MS = 60_000;

interface CaptureQueueDeps {
  store: Store;
  engine: CaptureEngine | null;
  net: Network;
  files: AssetFiles;
  clock: Clock;
  /** The workspaces' storage quota (rule import-assets-within-storage-quota); without, storage is not counted. */
  limits?: StorageLimits;
  delayMs: number;
}

export class CaptureQueue {
  readonly #deps: CaptureQueueDeps;
  readonly #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(deps: CaptureQueueDeps) {
    this.#deps = deps;
  }

  /** Takes up what a previous run of the server left queued (every workspace is read once, in the background). */
  start(): void {
    if (!this.#deps.engine) return;
    void this.#deps.store
      .workspaceIds()
      .then(async (ids) => {
        for (const id of ids) {
          if (this.#stopped) return;
          const doc = await this.#deps.store.read(id).catch(() => undefined);
          if (doc && Object.values(doc.sites).some((site) => (site.captureQueue?.length ?? 0) > 0)) this.kick(id);
        }
      })
      .catch((error: Error) => console.error('[site-mcp] capture queue: cannot read the store:', error.message));
  }

  /** Schedules a run for `workspaceId`, after the configured delay. */
  kick(workspaceId: string, delayMs = this.#deps.delayMs): void {
    if (!this.#deps.engine || this.#stopped) return;
    this.#pending.add(workspaceId);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#run().finally(() => (this.#running = undefined));
    }, delayMs);
    this.#timer.unref();
  }

  /** Stops the worker: no new run starts; a running one finishes its page. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Whether a run is scheduled or running (tests and the benchmark wait on it). */
  get busy(): boolean {
    return this.#timer !== undefined || this.#running !== undefined;
  }

  async #run(): Promise<void> {
    const workspaces = [...this.#pending];
    this.#pending.clear();
    let captured = 0;
    for (const workspaceId of workspaces) {
      for (;;) {
        if (this.#stopped) return;
        if (captured >= PAGES_PER_RUN) {
          this.kick(workspaceId, 0);
          break;
        }
        const outcome = await this.#captureNext(workspaceId).catch((error: Error) => {
          console.error('[site-mcp] capture queue:', error.message);
          return 'retry-later' as const;
        });
        if (outcome === 'empty') break;
        if (outcome === 'retry-later') {
          this.kick(workspaceId, UNAVAILABLE_RETRY_MS);
          break;
        }
        captured++;
      }
    }
  }

  /** Captures the first queued page of the first site of `workspaceId` that has one. */
  async #captureNext(workspaceId: string): Promise<'empty' | 'done' | 'retry-later'> {
    const batch = new AssetBatch();
    const stored = { assets: false };
    try {
      return await this.#captureInto(workspaceId, batch, stored);
    } finally {
      // Copies no committed page names are not left behind: a capture whose transaction failed, or that kept none
      // of them (rule import-refused-leaves-no-files).
      await this.#deps.files.settle?.(batch, stored.assets);
    }
  }

  async #captureInto(workspaceId: string, batch: AssetBatch, stored: { assets: boolean }): Promise<'empty' | 'done' | 'retry-later'> {
    const { store, engine, net, files, clock, limits } = this.#deps;
    const doc = await store.read(workspaceId);
    const site = doc && Object.values(doc.sites).find((s) => (s.captureQueue?.length ?? 0) > 0);
    const item = site?.captureQueue?.[0];
    if (!site || !item || !engine) return 'empty';
    const page = site.draft.pages.find((p) => p.key === item.pageKey);
    let sections: ReturnType<typeof capturedSections> | undefined;
    let kept: Awaited<ReturnType<typeof fetchAssets>>['kept'] = [];
    let failed = false;
    if (page && page.capture === 'queued') {
      try {
        // Served in turn with the other workspaces' captures (rule capture-fair-between-workspaces).
        const capture = await engine.capture(item.url, net, { tenant: workspaceId });
        const assets = new CapturedAssets();
        sections = capturedSections(page.key, capture, item.siteOrigin, slugOfPath, assets);
        // Kept as copies, as an import keeps them (rule import-site-assets-revalidated: never hotlinked).
        const quota = limits?.assetStorage?.perWorkspaceBytes;
        ({ kept } = await fetchAssets(assets.assets, net, files, { batch, until: assetsDeadline(), ...(quota === undefined ? {} : { budget: { bytes: quota - storageUsed(doc) } }) }));
        // The site's assets are keyed by id: a captured image names the asset it was kept as (images whose
        // fetch was refused are left out, as the import leaves them out).
        const idOf = new Map(kept.map((a) => [a.key, a.assetId]));
        kept = kept.map((a) => ({ ...a, key: a.assetId }));
        for (const section of sections) {
          const content = section.content;
          content.boxes = content.boxes.filter((b) => b.kind !== 'image' || idOf.has(b.imageAssetId ?? ''));
          for (const box of content.boxes) if (box.imageAssetId) box.imageAssetId = idOf.get(box.imageAssetId);
        }
      } catch (error) {
        if (error instanceof CaptureUnavailableError) return 'retry-later';
        failed = true;
      }
    }
    const storedAssets = await store.transact(workspaceId, (fresh): boolean => {
      const target = fresh.sites[site.websiteId];
      if (!target?.captureQueue) return false;
      const at = target.captureQueue.findIndex((q) => q.pageKey === item.pageKey);
      if (at < 0) return false;
      const queued = target.captureQueue[at];
      const current = target.draft.pages.find((p) => p.key === item.pageKey);
      if (failed && current && queued && queued.attempts + 1 < MAX_ATTEMPTS) {
        queued.attempts += 1;
        target.captureQueue.push(...target.captureQueue.splice(at, 1)); // the others first
        return false;
      }
      target.captureQueue.splice(at, 1);
      if (target.captureQueue.length === 0) delete target.captureQueue;
      if (!current || current.capture !== 'queued') return false;
      // Edited since the migration (a section's revision moved, or one was added or removed): the owner's work
      // stays; the page stays typed.
      const untouched = current.sections.every((s) => s.rev === 0 && !(target.appEdits[s.sectionId]?.length)) && page !== undefined && current.sections.length === page.sections.length;
      // Past the workspace's storage quota (rule import-assets-within-storage-quota: another write took the room
      // since the fetch): the page stays typed rather than the capture retrying forever.
      const usedBefore = storageUsed(fresh);
      target.draft.assets.push(...kept);
      if (!sections || sections.length === 0 || !untouched || overStorageQuota(limits ?? {}, usedBefore, fresh) !== undefined) {
        target.draft.assets.splice(target.draft.assets.length - kept.length, kept.length);
        current.capture = 'typed';
        return false;
      }
      for (const s of current.sections) s.hidden = true;
      current.sections.push(...sections.map((s) => toSection(s)));
      current.capture = 'captured';
      recordChange(target, clock.now(workspaceId), 'capture', `Page ${current.key} captured from its source`);
      return kept.length > 0;
    });
    stored.assets = storedAssets;
    return 'done';
  }
}
