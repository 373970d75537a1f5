// site:read tools (§4.3): list_sites, get_site_overview, list_pages, get_page, list_draft_changes,
// get_brand, get_analytics_summary, export_site. They read; they never write (rule read-tools-no-side-effects).
import type { Site } from '../domain/model.js';
import { visibleSites } from '../domain/authorize.js';
import { editorUrl, findPage, publicUrl } from '../domain/site.js';
import { toPortableSite } from '../domain/portable-site.js';
import { defineTool } from './types.js';



const siteStatus = (site: Site) => (site.published ? 'published' : 'unpublished');

const list_sites = defineTool('list_sites', ({ ws, connection }) => ({
  sites: visibleSites(ws, connection).map(({ site, role }) => ({
    websiteId: site.websiteId,
    name: site.name,
    businessName: site.businessName,
    status: siteStatus(site),
    role,
  })),
}));

const get_site_overview = defineTool('get_site_overview', ({ baseUrl, site }) => ({
  websiteId: site.websiteId,
  name: site.name,
  businessName: site.businessName,
  status: siteStatus(site),
  siteRevision: site.siteRevision,
  publishedRevision: site.published?.revision ?? null,
  publicUrl: publicUrl(baseUrl, site),
  editorUrl: editorUrl(baseUrl, site.websiteId),
  pageCount: site.draft.pages.length,
  searchVisible: site.searchVisible,
  updatedAt: site.updatedAt,
}));

const list_pages = defineTool('list_pages', ({ site }) => ({
  // capture: how a migration made the page, absent on pages no migration made (rule migrate-capture-status-listed).
  pages: site.draft.pages.map((p) => ({ pageId: p.pageId, slug: p.slug, title: p.title, kind: p.kind, hidden: p.hidden, sectionCount: p.sections.length, ...(p.capture ? { capture: p.capture } : {}) })),
}));

const get_page = defineTool('get_page', ({ site, args }) => {
  const page = findPage(site, args.pageId);
  return {
    page: {
      pageId: page.pageId,
      slug: page.slug,
      title: page.title,
      kind: page.kind,
      seo: page.seo,
      sections: page.sections.map((s, position) => ({
        sectionId: s.sectionId,
        externalKey: `${page.key}/${s.key}`,
        type: s.type,
        hidden: s.hidden,
        rev: s.rev,
        position,
        content: s.content,
      })),
    },
  };
});

const list_draft_changes = defineTool('list_draft_changes', ({ site }) => {
  const publishedRevision = site.published?.revision ?? null;
  const changes = site.changes.filter((c) => publishedRevision === null || c.revision > publishedRevision);
  return {
    siteRevision: site.siteRevision,
    publishedRevision,
    hasUnpublishedChanges: publishedRevision === null || site.siteRevision > publishedRevision,
    changes,
  };
});

const get_brand = defineTool('get_brand', ({ site }) => ({ businessName: site.businessName, ...site.brand }));

const get_analytics_summary = defineTool('get_analytics_summary', ({ site, args }) => {
  // The reference server records no traffic of its own; it reports the stored counters (zero for a new site).
  const period = args.period ?? '30d';
  return {
    period,
    visits: site.stats.visits,
    uniqueVisitors: site.stats.uniqueVisitors,
    topPages: (site.published?.content.pages ?? []).slice(0, 5).map((p) => ({ path: `/${p.slug === 'home' ? '' : p.slug}`, visits: 0 })),
  };
});

/** The whole draft as PortableSiteV1 (domain/portable-site.ts; rules export-site-whole-draft, portable-site-*). */
const export_site = defineTool('export_site', ({ baseUrl, site, now }) => ({ snapshot: toPortableSite(site, now, baseUrl) }));

export const siteReadHandlers = { list_sites, get_site_overview, list_pages, get_page, list_draft_changes, get_brand, get_analytics_summary, export_site };
