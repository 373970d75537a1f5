// The image provider interface of generate_image, and the reference provider: a deterministic SVG rendered
// locally from the brand palette and the prompt (no network, no model). A real deployment plugs a hosted
// provider in behind the same interface.
import { createHash } from 'node:crypto';

/** What of a site's brand an image follows (rule generate-image-brand-consistent): a site's brand (domain/model.ts) is one. */
export interface ImageBrand {
  colors: Record<'primary' | 'secondary' | 'accent' | 'background' | 'text', string>;
  style: string;
}

export interface ImageRequest {
  /** The workspace the image is made for (a hosted provider bills or rate-limits by it). */
  workspaceId: string;
  prompt: string;
  aspect: 'square' | 'landscape' | 'portrait';
  brand: ImageBrand;
}

export interface ImageProvider {
  render(request: ImageRequest): Promise<{ mimeType: string; bytes: Buffer }>;
}

const SIZES = { square: [1024, 1024], landscape: [1344, 768], portrait: [768, 1344] } as const;

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

export const svgBrandProvider: ImageProvider = {
  async render({ prompt, aspect, brand }) {
    const [w, h] = SIZES[aspect];
    const seed = createHash('sha256').update(prompt).digest();
    const palette = [brand.colors.primary, brand.colors.secondary, brand.colors.accent];
    const shapes = Array.from({ length: 6 }, (_, i) => {
      // A SHA-256 digest has 32 bytes: offsets up to 17 are read.
      const x = (seed.readUInt8(i * 3) / 255) * w;
      const y = (seed.readUInt8(i * 3 + 1) / 255) * h;
      const r = 60 + (seed.readUInt8(i * 3 + 2) / 255) * (Math.min(w, h) / 3);
      return `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r.toFixed(0)}" fill="${palette[i % 3]}" fill-opacity="0.55"/>`;
    }).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><title>${escapeXml(prompt)}</title><rect width="100%" height="100%" fill="${brand.colors.background}"/>${shapes}</svg>`;
    return { mimeType: 'image/svg+xml', bytes: Buffer.from(svg) };
  },
};
