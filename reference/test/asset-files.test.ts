// The files of imported assets (reference/store/asset-files.ts; rules import-site-assets-revalidated,
// portable-site-assets-carried): named by their content, with the extension of a kept image type or `bin`, written
// once however often the same bytes are kept, and read back only by a name of that form.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskAssetFiles, extensionOf } from '../store/asset-files.js';

describe('asset files rule:portable-site-assets-carried', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-mcp-asset-files-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the extension of each kept image type, parameters and case aside, and bin for anything else', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml', 'IMAGE/PNG; charset=binary'].map(extensionOf)).toEqual(['png', 'jpg', 'gif', 'webp', 'avif', 'svg', 'png']);
    expect(['application/pdf', 'text/html', '', 'application/octet-stream', 'image/bmp'].map(extensionOf)).toEqual(['bin', 'bin', 'bin', 'bin', 'bin']);
  });

  it('keeps bytes under their SHA-256, once for the same bytes, and reads back only such a name', async () => {
    const files = new DiskAssetFiles(join(dir, 'assets'));
    const bytes = Buffer.from('a picture');
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(await files.keep(bytes, 'image/png')).toBe(`/assets/${sha}.png`);
    expect(await files.keep(bytes, 'image/png')).toBe(`/assets/${sha}.png`);
    expect(await files.keep(Buffer.from('a menu'), 'application/pdf')).toMatch(/^\/assets\/[0-9a-f]{64}\.bin$/);
    expect((await readdir(join(dir, 'assets'))).sort()).toHaveLength(2);
    expect(await files.read(`${sha}.png`)).toEqual(bytes);
    for (const name of [`${sha}.html`, `${sha}`, `../${sha}.png`, `${'0'.repeat(64)}.png`, `${sha.toUpperCase()}.png`]) expect(await files.read(name), name).toBeUndefined();
  });
});
