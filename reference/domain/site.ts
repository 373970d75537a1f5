// Site-level helpers shared by tools, the fixtures protocol and the seed: making an empty site, finding pages
// and sections, recording a draft change, and fingerprinting content.
import { createHash } from 'node:crypto';
import type { Page, Section, SectionType, Site, SiteContent } from './model.js';
import type { Role } from './vocabulary.js';
import { newId } from './ids.js';
import { recordNotFound } from './errors.js';

export function emptyContent(): SiteContent {
  return { pages: [], fonts: [{ role: 'heading', family: 'Inter' }, { role: 'body', family: 'Inter' }], assets: [], redirects: [], collections: [] };
}

/** A new, unpublished site carrying the business name only (rule create-site-empty-draft). */
export function newSite(input: { name: string; businessName: string; members: Record<string, Role>; now: Date }): Site {
  const at = input.now.toISOString();
  return {
    websiteId: newId('site'),
    name: input.name,
    businessName: input.businessName,
    createdAt: at,
    updatedAt: at,
    members: { ...input.members },
    siteRevision: 0,
    draft: emptyContent(),
    published: null,
    searchVisible: true,
    changes: [],
    brand: {
      colors: { primary: '#1f4e79', secondary: '#f2a541', accent: '#3c9d9b', background: '#ffffff', text: '#1a1a1a' },
      fonts: { heading: 'Inter', body: 'Inter' },
      style: 'clean',
      logoAssetId: null,
    },
    analytics: {},
    contact: { businessName: input.businessName },
    stats: { visits: 0, uniqueVisitors: 0 },
    records: { leads: [], bookings: [], contacts: [], products: [], services: [], documents: [], domains: [] },
    appEdits: {},
    restorePoints: [],
    library: [],
    invitations: [],
    deliveryTokens: [],
  };
}

export function findPage(site: Site, pageId: string): Page {
  const page = site.draft.pages.find((p) => p.pageId === pageId);
  if (!page) throw recordNotFound('page', pageId);
  return page;
}

export function findSection(site: Site, sectionId: string): { page: Page; section: Section; index: number } {
  for (const page of site.draft.pages) {
    for (const [index, section] of page.sections.entries()) if (section.sectionId === sectionId) return { page, section, index };
  }
  throw recordNotFound('section', sectionId);
}

/** Every draft change bumps the site revision (plans pin it) and is listed by list_draft_changes. */
export function recordChange(site: Site, now: Date, kind: string, summary: string): number {
  site.siteRevision += 1;
  site.updatedAt = now.toISOString();
  site.changes.push({ revision: site.siteRevision, at: site.updatedAt, kind, summary });
  if (site.changes.length > 200) site.changes.splice(0, site.changes.length - 200);
  return site.siteRevision;
}

export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** A URL-safe slug from a title, unique among the site's pages. */
export function uniqueSlug(site: Site, wanted: string): string {
  const base = wanted.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'page';
  const taken = new Set(site.draft.pages.map((p) => p.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

export function newSection(page: Page, type: SectionType, content: Record<string, unknown>, key?: string): Section {
  const taken = new Set(page.sections.map((s) => s.key));
  let k = key ?? type;
  for (let n = 2; taken.has(k); n++) k = `${key ?? type}-${n}`;
  return { sectionId: newId('sec'), key: k, type, content, layout: {}, rev: 0, hidden: false };
}

/** A new page at the end of the site's draft, with its sections; the home page keeps the slug "home". */
export function addPage(site: Site, input: { key: string; title: string; kind?: Page['kind']; sections?: { key: string; type: SectionType; content: Record<string, unknown> }[] }): Page {
  const page: Page = {
    pageId: newId('page'),
    key: input.key,
    slug: input.key === 'home' ? 'home' : uniqueSlug(site, input.title),
    title: input.title,
    kind: input.kind ?? 'page',
    hidden: false,
    seo: { title: input.title, description: '' },
    sections: [],
  };
  for (const section of input.sections ?? []) page.sections.push(newSection(page, section.type, structuredClone(section.content), section.key));
  site.draft.pages.push(page);
  return page;
}

type PageInput = Parameters<typeof addPage>[1];

/** The pages of a demo or test site when none are given: a home page with a hero and a text, and a contact page. */
export function starterPages(businessName: string): PageInput[] {
  return [
    {
      key: 'home',
      title: 'Home',
      sections: [
        { key: 'hero', type: 'hero', content: { heading: `Welcome to ${businessName}`, subheading: 'Fresh every morning', buttonLabel: 'Visit us', buttonHref: '/contact' } },
        { key: 'intro', type: 'text', content: { heading: 'About us', body: `${businessName} is a family business.` } },
      ],
    },
    { key: 'contact', title: 'Contact', sections: [{ key: 'form', type: 'contact', content: { heading: 'Get in touch', showForm: true } }] },
  ];
}

/** Where a person edits a site in the app (the editorUrl of create_site, import_site, get_site_overview, …). */
export const editorUrl = (baseUrl: string, websiteId: string) => `${baseUrl}/dashboard/sites/${websiteId}/editor`;

/** The live address of a published site, null while unpublished. */
/** Where a site's live version is served, published or not yet (§3 "the public address"; the place is ours). */
export const liveAddress = (baseUrl: string, websiteId: string) => `${baseUrl}/sites/${websiteId}/`;

export const publicUrl = (baseUrl: string, site: Site) => (site.published ? liveAddress(baseUrl, site.websiteId) : null);
