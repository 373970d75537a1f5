// PortableSiteV1 (spec/schemas/portable-site-v1.schema.json), both ways: a site's draft as a snapshot (export_site,
// the delivery endpoint) and a snapshot's pages as a site's pages (import_site, migrate_site_from_url). The types
// are the generated ones, so a field the schema adds or renames fails to compile here instead of drifting.
import type { PortableSiteV1 } from '../../generated/schemas/portable-site-v1.js';
import { DomainError } from './errors.js';
import { newId } from './ids.js';
import type { Page, Section, Site } from './model.js';
import { validateSectionContent } from './section-content.js';

export type PortableSite = PortableSiteV1;
export type PortablePage = PortableSite['pages'][number];
export type PortableSection = PortablePage['sections'][number];

/**
 * PortableSiteV1 of the draft (never the published snapshot): rules export-site-whole-draft, portable-site-*. An
 * asset this server keeps is named by a path of its own (infra/store/asset-files.ts), made absolute against `baseUrl`,
 * the server's public address (rule portable-site-assets-carried: referenced by a URL that serves it).
 */
export function toPortableSite(site: Site, now: Date, baseUrl: string) {
  return {
    format: 'PortableSiteV1' as const,
    exportedAt: now.toISOString(),
    site: { name: site.name, businessName: site.businessName, locale: 'en' },
    theme: { colors: site.brand.colors, style: site.brand.style },
    fonts: site.draft.fonts,
    pages: site.draft.pages.map((p) => ({
      key: p.key,
      title: p.title,
      slug: p.slug,
      kind: p.kind,
      seo: p.seo,
      hidden: p.hidden,
      sections: p.sections.map((s) => ({
        externalKey: `${p.key}/${s.key}`,
        type: s.type,
        content: s.content,
        layout: s.layout,
        rev: s.rev,
        hidden: s.hidden,
        blocks: structuredClone(s.blocks ?? []),
      })),
    })),
    assets: site.draft.assets.map(({ key, url, alt, kind }) => ({ key, url: new URL(url, baseUrl).href, alt, kind })),
    // Price and duration too: what the snapshot holds of a service survives a round trip (rule portable-site-round-trip).
    services: site.records.services.map((s) => ({
      key: String(s.serviceId),
      name: String(s.name),
      ...(s.description ? { description: String(s.description) } : {}),
      // cast: a stored price is exported as stored; export_site's output check refuses one outside the snapshot schema (rule tool-output-schema).
      ...(s.price ? { price: structuredClone(s.price as { amount: number; currency: string }) } : {}),
      ...(s.durationMinutes ? { durationMinutes: Number(s.durationMinutes) } : {}),
    })),
    collections: site.draft.collections,
    redirects: site.draft.redirects,
    contact: site.contact,
    analytics: site.analytics,
  };
}

/** The section part of an externalKey <page>/<section>. */
export function sectionKeyOf(externalKey: string): string {
  return externalKey.split('/')[1] ?? '';
}

export function toPage(page: PortablePage): Page {
  return {
    pageId: newId('page'),
    key: page.key,
    slug: page.slug ?? page.key,
    title: page.title,
    kind: page.kind ?? 'page',
    hidden: page.hidden ?? false,
    seo: { title: page.seo?.title ?? page.title, description: page.seo?.description ?? '' },
    sections: page.sections.map((s) => toSection(s)),
  };
}

export function toSection(s: PortableSection): Section {
  return { sectionId: newId('sec'), key: sectionKeyOf(s.externalKey), type: s.type, content: structuredClone(s.content), layout: s.layout ?? {}, rev: 0, hidden: s.hidden ?? false, blocks: structuredClone(s.blocks ?? []) };
}

/** Validates one section's or block's content, naming where it sits in the snapshot. */
function validatePart(where: string, type: string, content: unknown): void {
  try {
    validateSectionContent(type, content);
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError('validation_failed', `${where}: ${error.message}`, error.details);
    throw error;
  }
}

/**
 * Sections and their blocks alike: a block is typed like a section, so no raw markup enters through one
 * (rule portable-site-block-typed).
 */
export function validatePortablePages(pages: PortablePage[]): void {
  for (const [p, page] of pages.entries()) {
    for (const [s, section] of page.sections.entries()) {
      validatePart(`pages/${p}/sections/${s} (${section.externalKey})`, section.type, section.content);
      for (const [b, block] of (section.blocks ?? []).entries()) validatePart(`pages/${p}/sections/${s}/blocks/${b} (${section.externalKey} block ${block.key})`, block.type, block.content);
    }
  }
}
