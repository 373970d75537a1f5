// PortableSiteV1 both ways in the reference (reference/domain/portable-site.ts; §2.3): a snapshot's page and section
// as the site's, with the defaults for what a snapshot may leave out, the section key of an externalKey, and where a
// content error is named. The features and the round-trip property check exports and imports black-box; these pin
// the defaults and messages they cannot tell apart.
import { describe, expect, it } from 'vitest';
import { sectionKeyOf, toPage, toPortableSite, toSection, validatePortablePages, type PortablePage } from '../domain/portable-site.js';
import { newSite } from '../domain/site.js';
import { refusal } from './domain-refusal.js';

describe('sectionKeyOf', () => {
  it('is the part after the page key, or empty when there is none', () => {
    expect(sectionKeyOf('home/hero')).toBe('hero');
    expect(sectionKeyOf('home')).toBe('');
  });
});

describe('toPage and toSection', () => {
  it('a page that names only its key, title and sections gets its slug from the key, kind page, visible, and SEO from its title', () => {
    const page = toPage({ key: 'about', title: 'About us', sections: [] } as unknown as PortablePage);
    expect(page).toMatchObject({ key: 'about', slug: 'about', title: 'About us', kind: 'page', hidden: false, seo: { title: 'About us', description: '' }, sections: [] });
    expect(page.pageId).toMatch(/^page_/);
  });

  it('what a page does say is kept', () => {
    const page = toPage({ key: 'news', title: 'News', slug: 'latest', kind: 'blog', hidden: true, seo: { title: 'Latest news', description: 'What is new' }, sections: [] } as unknown as PortablePage);
    expect(page).toMatchObject({ slug: 'latest', kind: 'blog', hidden: true, seo: { title: 'Latest news', description: 'What is new' } });
  });

  it('a section starts at rev 0 with its key from the externalKey, its own copy of content and blocks, and defaults for layout and hidden', () => {
    const content = { heading: 'Hi' };
    const blocks = [{ key: 'b1', type: 'text', content: { body: 'x' } }];
    const section = toSection({ externalKey: 'home/hero', type: 'hero', content, blocks } as unknown as PortablePage['sections'][number]);
    expect(section).toMatchObject({ key: 'hero', type: 'hero', content: { heading: 'Hi' }, layout: {}, rev: 0, hidden: false, blocks });
    expect(section.sectionId).toMatch(/^sec_/);
    expect(section.content).not.toBe(content);
    expect(section.blocks).not.toBe(blocks);
    const bare = toSection({ externalKey: 'home/intro', type: 'text', content: {}, layout: { width: 'wide' }, hidden: true } as unknown as PortablePage['sections'][number]);
    expect(bare).toMatchObject({ layout: { width: 'wide' }, hidden: true, blocks: [] });
  });
});

describe('validatePortablePages rule:portable-site-block-typed', () => {
  const page = (sections: unknown[]) => [{ key: 'home', title: 'Home', sections }] as unknown as PortablePage[];

  it('names the section of a content error by index and externalKey', () => {
    const error = refusal(() => validatePortablePages(page([{ externalKey: 'home/hero', type: 'no-such-type', content: {} }])));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/^pages\/0\/sections\/0 \(home\/hero\): /);
  });

  it('names the block of a content error inside a valid section', () => {
    const valid = toSection({ externalKey: 'home/hero', type: 'hero', content: { heading: 'Hi' } } as unknown as PortablePage['sections'][number]);
    expect(() => validatePortablePages(page([{ externalKey: 'home/hero', type: valid.type, content: valid.content }]))).not.toThrow();
    const error = refusal(() => validatePortablePages(page([{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Hi' }, blocks: [{ key: 'b1', type: 'no-such-type', content: {} }] }])));
    expect(error.message).toMatch(/^pages\/0\/sections\/0\/blocks\/0 \(home\/hero block b1\): /);
  });
});

describe('toPortableSite rule:export-site-whole-draft rule:portable-site-contents', () => {
  it('carries the site\'s locale, its brand as the theme, and each draft asset by key, URL, alt and kind only', () => {
    const site = newSite({ name: 'Rosa', businessName: "Rosa's Bakery", members: {}, now: new Date('2026-11-01T00:00:00Z') });
    site.brand = { ...site.brand, colors: { ...site.brand.colors, primary: '#123456' }, style: 'warm' };
    site.draft.assets.push({ assetId: 'asset_1', key: 'logo', url: 'https://cdn.example.test/logo.png', alt: 'Logo', kind: 'image' });
    const snapshot = toPortableSite(site, new Date('2026-11-02T00:00:00Z'), 'https://app.example');
    expect(snapshot.site).toEqual({ name: 'Rosa', businessName: "Rosa's Bakery", locale: 'en' });
    expect(snapshot.theme).toEqual({ colors: site.brand.colors, style: 'warm' });
    // The asset's internal id stays inside: a snapshot names assets by key and URL (§2.3).
    expect(snapshot.assets).toEqual([{ key: 'logo', url: 'https://cdn.example.test/logo.png', alt: 'Logo', kind: 'image' }]);
    expect(snapshot.exportedAt).toBe('2026-11-02T00:00:00.000Z');
  });
});
