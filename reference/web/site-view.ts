// A site as a visitor sees it, for the published site (/sites/<id>/) and the owner's read-only draft preview
// (the editorUrl): each section rendered by its type (section-content.schema.json), in the brand's palette and
// fonts, with its layout tokens. Content is plain text by schema and the template escapes it; colours and font
// names go into CSS, so they are taken only when they have the shape of a colour or a font name.
import type { Asset, Brand, Page, Section, Site, SiteContent } from '../domain/model.js';
import { renderView } from './render.js';

const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const FONT = /^[A-Za-z0-9][A-Za-z0-9 -]{0,60}$/;
const DEFAULT_BRAND: Brand['colors'] = { primary: '#1f4e79', secondary: '#f2a541', accent: '#3c9d9b', background: '#ffffff', text: '#1a1a1a' };

export interface SiteTheme {
  colors: Brand['colors'];
  /** CSS font-family lists: the brand's font first, then a generic family that always exists. */
  headingFont: string;
  bodyFont: string;
}

export function themeOf(brand: Brand, content: SiteContent): SiteTheme {
  const colors = Object.fromEntries(Object.entries(DEFAULT_BRAND).map(([k, fallback]) => {
    const given = (brand.colors as Record<string, string>)[k];
    return [k, typeof given === 'string' && COLOUR.test(given) ? given : fallback];
  })) as Brand['colors'];
  const font = (role: 'heading' | 'body') => {
    const name = content.fonts.find((f) => f.role === role)?.family ?? brand.fonts[role];
    const generic = role === 'heading' ? 'Georgia, "Times New Roman", serif' : 'system-ui, -apple-system, "Segoe UI", sans-serif';
    return typeof name === 'string' && FONT.test(name) ? `"${name}", ${generic}` : generic;
  };
  return { colors, headingFont: font('heading'), bodyFont: font('body') };
}

/** An image a section names: an https URL of its own, or an asset of the site's content or library. */
function imageOf(item: Record<string, unknown>, assets: readonly Asset[]): { src: string; alt: string } | null {
  const alt = typeof item.alt === 'string' ? item.alt : '';
  if (typeof item.imageUrl === 'string' && item.imageUrl.startsWith('https://')) return { src: item.imageUrl, alt };
  if (typeof item.imageAssetId === 'string') {
    const asset = assets.find((a) => a.assetId === item.imageAssetId || a.key === item.imageAssetId);
    if (asset && /^(https:\/\/|http:\/\/|\/)/.test(asset.url)) return { src: asset.url, alt: alt || asset.alt };
  }
  return null;
}

/** Paragraphs of a plain-text field: blank lines separate them. */
const paragraphs = (text: unknown): string[] => (typeof text === 'string' ? text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean) : []);

export interface SectionView {
  key: string;
  type: string;
  classes: string;
  c: Record<string, unknown>;
  paragraphs: string[];
  image: { src: string; alt: string } | null;
  images: { src: string; alt: string; caption: string }[];
  /** The section's button link, a site path resolved against the site's address; null when it has none. */
  href: string | null;
  /** A captured region (rule migrate-capture-then-typed): its size and its positioned boxes; null for other types. */
  captured: { style: string; boxes: CapturedBoxView[] } | null;
}

export interface CapturedBoxView {
  kind: 'text' | 'link' | 'image';
  /** Position and type style, built here from numbers and a checked colour only. */
  style: string;
  text: string;
  href: string | null;
  image: { src: string; alt: string } | null;
}

const px = (n: unknown, max: number) => Math.min(max, Math.max(0, Math.round(Number(n) || 0)));

/** A captured region's boxes at their captured positions: the region's internal layout is fixed (§4.3). */
function capturedView(c: Record<string, unknown>, assets: readonly Asset[], basePath: string): SectionView['captured'] {
  const boxes = Array.isArray(c.boxes) ? (c.boxes as Record<string, unknown>[]) : [];
  return {
    style: `width:${px(c.width, 4000)}px;height:${px(c.height, 20000)}px`,
    boxes: boxes.map((b) => {
      const type = [
        `left:${px(b.x, 4000)}px;top:${px(b.y, 20000)}px;width:${px(b.w, 4000)}px;height:${px(b.h, 20000)}px`,
        ...(b.fontSize ? [`font-size:${px(b.fontSize, 200)}px`] : []),
        ...(b.lineHeight ? [`line-height:${px(b.lineHeight, 400)}px`] : []),
        ...(typeof b.fontFamily === 'string' && /^[A-Za-z0-9 ,-]{1,120}$/.test(b.fontFamily) ? [`font-family:${b.fontFamily}`] : []),
        ...(b.bold ? ['font-weight:700'] : []),
        ...(typeof b.color === 'string' && COLOUR.test(b.color) ? [`color:${b.color}`] : []),
      ].join(';');
      const kind = b.kind === 'image' || b.kind === 'link' ? b.kind : 'text';
      return { kind, style: type, text: typeof b.text === 'string' ? b.text : '', href: kind === 'link' ? linkOf(b.href, basePath) : null, image: kind === 'image' ? imageOf(b, assets) : null };
    }),
  };
}

/** A link a section carries (https, a site path, mailto: or tel: by schema); anything else is dropped. */
function linkOf(href: unknown, basePath: string): string | null {
  if (typeof href !== 'string') return null;
  if (href.startsWith('/')) return `${basePath}${href.slice(1)}`;
  return /^(https:\/\/|mailto:|tel:)/.test(href) ? href : null;
}

function sectionView(section: Section, assets: readonly Asset[], basePath: string): SectionView {
  const c = section.content;
  const layout = section.layout ?? {};
  const classes = [
    `s-${section.type}`,
    `w-${layout.width ?? 'normal'}`,
    `p-${layout.verticalPadding ?? 'medium'}`,
    ...(layout.hideOnMobile ? ['hide-mobile'] : []),
    ...(layout.hideOnDesktop ? ['hide-desktop'] : []),
  ].join(' ');
  const images = Array.isArray(c.images)
    ? (c.images as Record<string, unknown>[]).flatMap((item) => {
        const image = imageOf(item, assets);
        return image ? [{ ...image, caption: typeof item.caption === 'string' ? item.caption : '' }] : [];
      })
    : [];
  return { key: section.key, type: section.type, classes, c, paragraphs: paragraphs(c.body ?? c.subheading), image: imageOf(c, assets), images, href: linkOf(c.buttonHref, basePath), captured: section.type === 'captured' ? capturedView(c, assets, basePath) : null };
}

export interface SiteViewOptions {
  /** Where links between pages point: the public address or the preview's. */
  basePath: string;
  /** The banner of the owner's draft preview; absent on the public site. */
  preview?: { backHref: string; note: string };
  searchVisible: boolean;
}

/** The HTML of one page of `content` (the live snapshot or the draft) of `site`. */
export function renderSitePage(site: Site, content: SiteContent, page: Page, options: SiteViewOptions): string {
  const assets = [...content.assets, ...site.library];
  const nav = content.pages.filter((p) => !p.hidden && p.kind === 'page').map((p) => ({ title: p.title, href: `${options.basePath}${p.slug === 'home' ? '' : p.slug}`, current: p.pageId === page.pageId }));
  const address = site.contact.address;
  return renderView('public-site', {
    businessName: site.businessName,
    pageTitle: page.seo.title || page.title,
    description: page.seo.description,
    theme: themeOf(site.brand, content),
    nav,
    sections: page.sections.filter((s) => !s.hidden).map((s) => sectionView(s, assets, options.basePath)),
    contact: {
      email: site.contact.email ?? '',
      phone: site.contact.phone ?? '',
      address: address ? [address.street, [address.postalCode, address.city].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ') : '',
    },
    preview: options.preview ?? null,
    searchVisible: options.searchVisible,
  });
}

/** The page "nothing is published here": the same for an unknown site and an unpublished one. */
export function renderNotPublished(): string {
  return renderView('not-published', {});
}
