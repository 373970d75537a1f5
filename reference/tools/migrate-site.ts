// migrate_site_from_url (§4.3): crawl a live address (bounded, robots-respecting, SSRF-hardened), convert
// the pages and create the draft in one call. The reference server has no visual-capture engine, so every
// migration takes the typed path and says so (fidelity "typed", actionsRequired); the result carries every
// count so the caller relays it rather than reporting a clean success (rule migrate-result-relayed).
import { DomainError } from '../domain/errors.js';
import { crawl, type CrawledPage } from '../domain/crawler.js';
import { checkUrl, systemResolve, UnsafeUrlError } from '../domain/safe-fetch.js';
import { importSnapshot } from '../domain/import-merge.js';
import type { PortablePage, PortableSite } from '../domain/portable-site.js';
import { editorUrl } from '../domain/site.js';
import { defineTool } from './types.js';

const slugOf = (path: string, i: number) => (path === '/' || path === '' ? 'home' : path.replace(/\.[a-z]+$/i, '').replace(/[^a-z0-9]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 60) || `page-${i}`);
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

const migrate_site_from_url = defineTool('migrate_site_from_url', async ({ args, rt, ws, connection, note, now }) => {
  try {
    // The network is a service (services.ts): the real one, or a test's fake web (no public network in tests).
    await checkUrl(args.url, rt.net.resolve ?? systemResolve, rt.net.allowOrigins);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new DomainError('validation_failed', `That address cannot be migrated: ${error.message}.`, { issues: [{ path: '/url', message: error.message }] });
    throw error;
  }
  const maxPages = args.maxPages ?? 50;
  const result = await crawl(args.url, { maxPages, deadlineMs: 60_000, fetch: rt.net });
  const [first] = result.pages;
  if (!first) {
    throw new DomainError('operation_failed', `No page of ${args.url} could be read (${result.failed[0]?.reason ?? 'no pages'}). Nothing was created.`);
  }
  const pages = result.pages.map(toTypedPage);
  const seen = new Set<string>();
  const unique = pages.filter((p) => (seen.has(p.key) ? false : (seen.add(p.key), true)));
  const snapshot: PortableSite = { format: 'PortableSiteV1', site: { name: first.title || new URL(args.url).hostname }, pages: unique };
  const imported = await importSnapshot(rt, ws, connection, snapshot, { mergeIntoWebsiteId: args.mergeIntoWebsiteId }, now);
  note(imported.summary);
  const dropped = result.pages.reduce((n, p) => n + p.droppedEmbeds, 0);
  const actionsRequired = [
    'Visual capture is not available on this server; pages were converted to typed sections. Review the layout in the editor.',
    ...(dropped > 0 ? [`${dropped} scripts, widgets or embeds were not carried over; re-add booking or contact features with the site's own tools.`] : []),
    ...(result.failed.length > 0 ? [`${result.failed.length} pages could not be read.`] : []),
    ...(result.truncated ? ['The crawl stopped at its page or time bound; run it again with mergeIntoWebsiteId to continue.'] : []),
  ];
  return {
    websiteId: imported.websiteId,
    editorUrl: editorUrl(rt.baseUrl, imported.websiteId),
    fidelity: 'typed' as const,
    pagesFetched: result.pages.length,
    pagesFailed: result.failed.length,
    // This server has no capture engine, so no page waits in its queue; the 20-page allowance
    // (limits.visualCaptureAllowancePages) would bound one.
    pagesAwaitingCapture: 0,
    truncated: result.truncated,
    assetsSkipped: imported.assetsSkipped.length,
    actionsRequired,
  };
});

export const migrateHandlers = { migrate_site_from_url };
