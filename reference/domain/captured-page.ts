// A captured page (capture.ts) as the sections of a migrated page (rule migrate-capture-then-typed): one
// `captured` section per region of the page (spec/schemas/section-content.schema.json), positioned boxes whose
// text, links and images stay editable while their positions stay as captured. Plain text only: the characters
// < and > are removed (rule replace-section-no-raw-markup); links keep only the forms Href admits (a link within
// the migrated site becomes a path of its migrated page); images name an asset of the snapshot, so they go
// through the import's asset pipeline (fetchAssets: SSRF-hardened, capped, image types only).
import type { Captured } from '../../generated/schemas/section-content.js';
import type { PageCapture } from '../infra/capture.js';
import type { PortablePage, PortableSite } from './portable-site.js';

// One box as spec/schemas/section-content.schema.json's `captured` section holds it.
type CapturedBoxContent = Captured['boxes'][number];

/** A portable section of type `captured`, its content typed as that type's schema holds it. */
export type CapturedSection = PortablePage['sections'][number] & { type: 'captured'; content: Captured };

const plain = (s: string, max: number) => s.replace(/[<>]/g, '').trim().slice(0, max);
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(Number.isFinite(n) ? n : min)));
const HREF = /^(https:\/\/[^\s<>"]+|\/[^\s<>"]*|mailto:[^\s<>"]+|tel:[0-9+() -]+)$/;

/** The slug a migrated page gets from its source path ('home' for the root; '' when nothing of the path is left). */
export function slugOfPath(path: string): string {
  if (path === '/' || path === '') return 'home';
  return path.replace(/\.[a-z]+$/i, '').replace(/[^a-z0-9]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 60);
}

type SlugOf = (path: string) => string;

/** A link of the source page in the migrated site: same-site links become the migrated page's path; other forms only as Href admits. */
export function capturedHref(href: string, siteOrigin: string, slugOf: SlugOf): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.origin === siteOrigin) {
    const slug = slugOf(url.pathname);
    return slug === 'home' || slug === '' ? '/' : `/${slug}`;
  }
  const text = url.protocol === 'https:' || url.protocol === 'mailto:' || url.protocol === 'tel:' ? (url.protocol === 'https:' ? url.href : href) : '';
  return text.length <= 2000 && HREF.test(text) ? text : undefined;
}

/**
 * Collects the images of a migration's captured pages as snapshot assets, one per address. PortableSiteV1 names an
 * asset by an https address (as the typed path's images), so an image over plain http is not carried and is
 * reported in assetsSkipped with its reason; data: and blob: images are left out.
 */
export class CapturedAssets {
  readonly assets: NonNullable<PortableSite['assets']> = [];
  readonly skipped: { url: string; reason: string }[] = [];
  readonly #byUrl = new Map<string, string>();

  keyOf(src: string, alt: string): string | undefined {
    if (!/^https?:\/\//.test(src) || src.length > 2000) return undefined;
    if (!src.startsWith('https://')) {
      if (!this.skipped.some((s) => s.url === src)) this.skipped.push({ url: src, reason: 'not an https address' });
      return undefined;
    }
    const known = this.#byUrl.get(src);
    if (known) return known;
    const key = `captured-image-${this.#byUrl.size + 1}`;
    this.#byUrl.set(src, key);
    this.assets.push({ key, url: src, alt: plain(alt, 200), kind: 'image' });
    return key;
  }
}

/** The captured sections of one page: `<page key>/capture-<n>` per region with boxes. */
export function capturedSections(key: string, capture: PageCapture, siteOrigin: string, slugOf: SlugOf, assets: CapturedAssets): CapturedSection[] {
  const width = clamp(capture.width, 1, 4000);
  const sections: CapturedSection[] = [];
  for (const region of capture.regions) {
    const boxes: CapturedBoxContent[] = [];
    for (const box of region.boxes.slice(0, 300)) {
      const position = { x: clamp(box.x, 0, 4000), y: clamp(box.y - region.top, 0, 20000), w: clamp(box.w, 1, 4000), h: clamp(box.h, 1, 20000) };
      const style = {
        ...(box.fontSize ? { fontSize: clamp(box.fontSize, 6, 200) } : {}),
        ...(box.lineHeight ? { lineHeight: clamp(box.lineHeight, 6, 400) } : {}),
        ...(box.fontFamily && /^[A-Za-z0-9 ,-]{1,120}$/.test(box.fontFamily) ? { fontFamily: box.fontFamily } : {}),
        ...(box.bold ? { bold: true } : {}),
        ...(box.color && /^#[0-9a-f]{6}$/i.test(box.color) ? { color: box.color } : {}),
      };
      const text = plain(box.text ?? '', 5000);
      if (box.kind === 'image') {
        const imageAssetId = box.src ? assets.keyOf(box.src, box.alt ?? '') : undefined;
        const alt = plain(box.alt ?? '', 200);
        if (imageAssetId) boxes.push({ kind: 'image', ...position, imageAssetId, ...(alt ? { alt } : {}) });
      } else if (box.kind === 'link') {
        const href = box.href ? capturedHref(box.href, siteOrigin, slugOf) : undefined;
        // A link whose address the site cannot hold keeps its words as text (rule replace-section-no-raw-markup).
        if (href) boxes.push({ kind: 'link', ...position, href, ...(text ? { text } : {}), ...style });
        else if (text) boxes.push({ kind: 'text', ...position, text, ...style });
      } else if (text) boxes.push({ kind: 'text', ...position, text, ...style });
    }
    if (boxes.length === 0) continue;
    // The region holds every box whole, even one that reaches past the band it starts in.
    const height = clamp(Math.max(region.height, ...boxes.map((b) => b.y + b.h)), 1, 20000);
    sections.push({ externalKey: `${key}/capture-${sections.length + 1}`, type: 'captured', content: { width, height, boxes } });
  }
  return sections;
}

/**
 * A typed page (the typed path's conversion) with its capture: the captured regions are what a visitor sees; the
 * typed sections stay, hidden, under their own keys, so a re-sync with mergeIntoWebsiteId, which takes the typed
 * path (rule migrate-merge-typed), merges into them instead of adding the page's text a second time. A page whose
 * capture found nothing to show stays typed.
 */
export function withCapture(typed: PortablePage, capture: PageCapture, siteOrigin: string, assets: CapturedAssets): PortablePage | undefined {
  const captured = capturedSections(typed.key, capture, siteOrigin, slugOfPath, assets);
  if (captured.length === 0) return undefined;
  return { ...typed, sections: [...typed.sections.map((s) => ({ ...s, hidden: true })), ...captured] };
}
