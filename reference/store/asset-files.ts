// The files of imported assets (rules import-site-assets-revalidated, portable-site-assets-carried): §4.3 fetches
// an import's asset URLs "through the same capped, rollback-safe pipeline as a manual bundle upload", so what a
// site keeps is the fetched copy, served from this server (GET /assets/<file>), never the source URL: the asset
// stays when the source changes or goes away, and a visitor's browser never calls the source. Files are named by
// their content (SHA-256), so the same bytes imported twice are one file and a file never changes once written;
// an import that fails after its fetches leaves at most files no site names, which GET serves only to someone
// who already has their bytes.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably } from './durable-file.js';

/**
 * Keeps fetched bytes and answers where this server serves them: a path (`/assets/<file>`), so the site's record
 * holds no host or port; an export makes it absolute against the server's base URL (domain/portable-site.ts).
 */
export interface AssetFiles {
  keep(body: Buffer, contentType: string): Promise<string>;
}

/** The served type of each kept file's extension; `bin` is a non-image asset (kind file), served as a download. */
export const ASSET_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  bin: 'application/octet-stream',
};

/** A kept file's name: 64 hex digits and one of the extensions above. */
export const ASSET_FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp|avif|svg|bin)$/;

/** The extension for a fetched content type: its image type when it is one the import keeps, else `bin`. */
export function extensionOf(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const found = Object.entries(ASSET_TYPES).find(([ext, t]) => t === type && ext !== 'bin');
  return found ? found[0] : 'bin';
}

/** Files under `dir`, served at `/assets/<name>`. */
export class DiskAssetFiles implements AssetFiles {
  constructor(private readonly dir: string) {}

  async keep(body: Buffer, contentType: string): Promise<string> {
    const name = `${createHash('sha256').update(body).digest('hex')}.${extensionOf(contentType)}`;
    await mkdir(this.dir, { recursive: true });
    await writeFileDurably(join(this.dir, name), body);
    return `/assets/${name}`;
  }

  /** The bytes of a kept file, or undefined for a name that is not one (never a path outside `dir`). */
  async read(name: string): Promise<Buffer | undefined> {
    if (!ASSET_FILE_NAME.test(name)) return undefined;
    return readFile(join(this.dir, name)).catch(() => undefined);
  }
}
