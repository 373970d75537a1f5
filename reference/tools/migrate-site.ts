// migrate_site_from_url (§4.3): crawl a live address (bounded, robots-respecting, SSRF-hardened), convert
// the pages and create the draft in one call. A new draft first tries visual capture (infra/capture.ts, rule
// migrate-capture-then-typed) for up to the allowance of pages (limits.visualCaptureAllowancePages, rule
// migrate-capture-allowance); the pages beyond it are created typed and queued for the capture queue
// (domain/capture-queue.ts); a page the browser fails on, or every page when this server has no browser, is typed.
// A re-sync with mergeIntoWebsiteId takes the typed path (rule migrate-merge-typed). fidelity says which path the
// pages took (rule migrate-fidelity-values) and the result carries every count so the caller relays it rather
// than reporting a clean success (rule migrate-result-relayed).
import { DomainError } from '../domain/errors.js';
import { crawl, type CrawledPage } from '../infra/crawler.js';
import { checkUrl, systemResolve, UnsafeUrlError, withinTime } from '../infra/safe-fetch.js';
import { checkImportAllowed, importSnapshot } from '../domain/import-merge.js';
import type { PortablePage, PortableSite } from '../domain/portable-site.js';
import { CaptureBusyError, CaptureUnavailableError } from '../infra/capture.js';
import { CapturedAssets, slugOfPath, withCapture } from '../domain/captured-page.js';
import type { CaptureQueueItem, Page } from '../domain/model.js';
import { editorUrl } from '../domain/site.js';
import { defineTool } from './types.js';

const slugOf = (path: string, i: number) => slugOfPath(path) || `page-${i}`;
const plain = (s: string, max: number) => s.replace(/[<>]/g, '').slice(0, max);

/** The typed path: a hero from the first heading, then text sections, then a gallery of the page's images. */
export function toTypedPage(page: CrawledPage, i: number): PortablePage {
  const key = slugOf(page.path, i);
  const sections: PortablePage['sections'] = [];
  const heading = page.headings[0] ?? page.title ?? key;
  sections.push({ externalKey: `${key}/hero`, type: 'hero', content: { heading: plain(heading || key, 200) } });
  const body = page.paragraphs.join('\n\n');
  if (body) sections.push({ externalKey: `${key}/text`, type: 'text', content: { ...(page.headings[1] ? { heading: plain(page.headings[1], 200) } : {}), body: plain(body, 5000) } });
  const images = page.images.filter((img) => /^https:\/\//.test(img.url)).slice(0, 20);
  if (images.length > 0) sections.push({ externalKey: `${key}/gallery`, type: 'gallery', content: { images: images.map((img) => ({ imageUrl: img.url, alt: plain(img.alt || 'Image', 200) })) } });
  return { key, title: plain(page.title || heading || key, 200), slug: key, sections };
}

const migrate_site_from_url = defineTool('migrate_site_from_url', async ({ args, store, net, assetFiles, storageBudgets, limits, capture, captureQueue, baseUrl, ws, connection, note, now }) => {
  // The whole call ends within limits.crawl.migrationSeconds, each step taking at most what is left of it: the
  // address check, the crawl, the captures and the asset fetches (rule migrate-crawl-time-bounded). Pages it has no
  // time to capture wait in the capture queue.
  const until = Date.now() + limits.crawl.migrationSeconds * 1000;
  try {
    // The network is a service (services.ts): the real one, or a test's fake web (no public network in tests).
    await withinTime(checkUrl(args.url, net.resolve ?? systemResolve, net.allowOrigins), until - Date.now());
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new DomainError('validation_failed', `That address cannot be migrated: ${error.message}.`, { issues: [{ path: '/url', message: error.message }] });
    throw error;
  }
  // A migration the site limit (or the merge target) would refuse crawls, captures and keeps nothing (rule
  // import-checks-before-fetch); importSnapshot checks again after the crawl.
  checkImportAllowed(limits, ws, connection, args.mergeIntoWebsiteId);
  const maxPages = args.maxPages ?? 50;
  const result = await crawl(args.url, { maxPages, limits: limits.crawl, fetch: net, until });
  const [first] = result.pages;
  if (!first) {
    throw new DomainError('operation_failed', `No page of ${args.url} could be read (${result.failed[0]?.reason ?? 'no pages'}). Nothing was created.`);
  }
  const seen = new Set<string>();
  const crawled = result.pages.map((page, i) => ({ page, typed: toTypedPage(page, i) })).filter(({ typed }) => (seen.has(typed.key) ? false : (seen.add(typed.key), true)));

  // Visual capture first, for a new draft only: a re-sync takes the typed path (rule migrate-merge-typed).
  const merging = args.mergeIntoWebsiteId !== undefined;
  const engine = merging ? null : capture;
  let captureAvailable = engine !== null && (await engine.available());
  // The workspace's own allowance (other plans, rule migrate-capture-allowance-setting), else the default of 20.
  const allowance = ws.captureAllowancePages ?? limits.visualCaptureAllowancePages;
  const siteOrigin = new URL(first.url).origin;
  const assets = new CapturedAssets();
  const status = new Map<string, NonNullable<Page['capture']>>();
  const queue: CaptureQueueItem[] = [];
  let captureFailed = 0;
  let browserBusy = false;
  let capturedCount = 0;
  const pages: PortablePage[] = [];
  for (const { page, typed } of crawled) {
    if (!captureAvailable || !engine) {
      status.set(typed.key, 'typed');
      pages.push(typed);
    } else if (capturedCount >= allowance || Date.now() >= until || browserBusy) {
      // Beyond the allowance (or out of time): typed now, captured later by the queue (rule migrate-capture-allowance).
      status.set(typed.key, 'queued');
      queue.push({ pageKey: typed.key, url: page.url, siteOrigin, queuedAt: now.toISOString(), attempts: 0 });
      pages.push(typed);
    } else {
      try {
        // Served in turn with other workspaces' captures, and waited for no longer than capture.waitSeconds nor
        // past this migration's deadline (rule capture-fair-between-workspaces).
        const waitMs = Math.max(0, Math.min(limits.capture.waitSeconds * 1000, until - Date.now()));
        const withRegions = withCapture(typed, await engine.capture(page.url, net, { tenant: ws.id, waitMs, until }), siteOrigin, assets);
        status.set(typed.key, withRegions ? 'captured' : 'typed');
        if (withRegions) capturedCount++;
        pages.push(withRegions ?? typed);
      } catch (error) {
        if (error instanceof CaptureBusyError) {
          // The browser is busy with other work: this page and the rest wait in the capture queue, as past the
          // deadline, instead of holding the caller.
          status.set(typed.key, 'queued');
          queue.push({ pageKey: typed.key, url: page.url, siteOrigin, queuedAt: now.toISOString(), attempts: 0 });
          pages.push(typed);
          browserBusy = true;
          continue;
        }
        // This page (or, with no browser, every page from here on) falls back to typed sections.
        if (error instanceof CaptureUnavailableError) captureAvailable = false;
        else captureFailed++;
        status.set(typed.key, 'typed');
        pages.push(typed);
      }
    }
  }
  const snapshot: PortableSite = { format: 'PortableSiteV1', site: { name: first.title || new URL(args.url).hostname }, pages, ...(assets.assets.length ? { assets: assets.assets } : {}) };
  const imported = await importSnapshot(
    { store, net, assetFiles, storageBudgets, limits },
    ws,
    connection,
    snapshot,
    {
      mergeIntoWebsiteId: args.mergeIntoWebsiteId,
      until,
      completeNewSite: (site) => {
        for (const p of site.draft.pages) p.capture = status.get(p.key) ?? 'typed';
        if (queue.length > 0) site.captureQueue = queue;
      },
    },
    now,
  );
  if (!imported.merged && queue.length > 0) captureQueue.kick(ws.id);
  note(imported.summary);
  const fidelity = capturedCount === 0 ? ('typed' as const) : capturedCount === pages.length ? ('visual' as const) : ('mixed' as const);
  const dropped = result.pages.reduce((n, p) => n + p.droppedEmbeds, 0);
  const actionsRequired = [
    ...(merging ? ['The re-sync took the typed path: changed text arrived in typed sections, and captured regions, if the site has any, were left as they were. Review the pages in the editor.'] : []),
    ...(!merging && capturedCount === 0 ? ['Visual capture was not available for this migration; pages were converted to typed sections. Review the layout in the editor.'] : []),
    ...(captureFailed > 0 ? [`${captureFailed} pages could not be captured and were converted to typed sections; review their layout in the editor.`] : []),
    ...(queue.length > 0 && !browserBusy ? [`${queue.length} pages are beyond the free capture allowance of ${allowance} pages: they are typed for now and wait in the capture queue; list_pages shows each page's capture status.`] : []),
    ...(queue.length > 0 && browserBusy ? [`${queue.length} pages wait in the capture queue because the capture browser was busy with other work: they are typed for now and captured later; list_pages shows each page's capture status.`] : []),
    ...(dropped > 0 ? [`${dropped} scripts, widgets or embeds were not carried over; re-add booking or contact features with the site's own tools.`] : []),
    ...(result.failed.length > 0 ? [`${result.failed.length} pages could not be read.`] : []),
    ...(result.robotsBudgetSpent ? [`The source's robots.txt holds more rules than a migration matches, so the crawl stopped after ${result.pages.length} pages; add the pages it did not reach in the editor.`] : []),
    ...(result.truncated && !result.robotsBudgetSpent ? ['The crawl stopped at its page or time bound; run it again with mergeIntoWebsiteId to continue.'] : []),
  ];
  return {
    websiteId: imported.websiteId,
    editorUrl: editorUrl(baseUrl, imported.websiteId),
    fidelity,
    pagesFetched: result.pages.length,
    pagesFailed: result.failed.length,
    pagesAwaitingCapture: queue.length,
    truncated: result.truncated,
    assetsSkipped: imported.assetsSkipped.length + assets.skipped.length,
    actionsRequired,
  };
});

export const migrateHandlers = { migrate_site_from_url };
