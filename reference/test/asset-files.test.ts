// The files of imported assets (reference/infra/store/asset-files.ts; rules import-site-assets-revalidated,
// portable-site-assets-carried): named by their content, with the extension of a kept image type or `bin`, written
// once however often the same bytes are kept, and read back only by a name of that form; swept at server start when
// no stored document names them (an import that failed after its fetches).
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { DiskAssetFiles, extensionOf, sweepAssetFiles } from '../infra/store/asset-files.js';
import { testMode } from '../testing/index.js';
import { FIXTURES_SECRET, ownerWithConnection, startTestServer } from './harness.js';

describe('asset files rule:portable-site-assets-carried', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-mcp-asset-files-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the extension of each kept image type, parameters and case aside, and bin for anything else', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml', 'IMAGE/PNG; charset=binary', ' image/webp ;q=1'].map(extensionOf)).toEqual(['png', 'jpg', 'gif', 'webp', 'avif', 'svg', 'png', 'webp']);
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
    // Files that exist, outside the folder or beside the kept ones, under names not of the form: never read.
    await writeFile(join(dir, `${sha}.png`), 'outside');
    await writeFile(join(dir, 'assets', `${sha}.png.old`), 'beside');
    for (const name of [`${sha}.html`, `${sha}`, `../${sha}.png`, `${sha}.png.old`, `${'0'.repeat(64)}.png`, `${sha.toUpperCase()}.png`]) expect(await files.read(name), name).toBeUndefined();
  });
});

// The sweep at server start (sweepAssetFiles, run by startServer in reference/app.ts): copies no stored document
// names go, every named one stays.
describe('asset files swept at start rule:import-site-assets-revalidated', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-mcp-asset-sweep-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('removes unnamed copies and interrupted writes, keeps what a site, a restore point or the workspace names and any other name', async () => {
    const name = (c: string, ext: string) => `${c.repeat(64)}.${ext}`;
    await mkdir(join(dir, 'assets'), { recursive: true });
    await mkdir(join(dir, 'workspaces', 'ws_a', 'sites'), { recursive: true });
    await mkdir(join(dir, 'workspaces', 'ws_b'), { recursive: true }); // a workspace without a sites folder
    await mkdir(join(dir, 'workspaces', 'ws_c', 'sites'), { recursive: true }); // a workspace folder without its document
    const inDraft = name('a', 'png'), inRestorePoint = name('b', 'jpg'), inWorkspace = name('c', 'bin'), orphan = name('d', 'png'), orphanBin = name('e', 'bin');
    for (const file of [inDraft, inRestorePoint, inWorkspace, orphan, orphanBin, `${orphan}.0123456789ab.tmp`, 'README', `${'f'.repeat(64)}.html`]) await writeFile(join(dir, 'assets', file), 'x');
    await writeFile(join(dir, 'workspaces', 'ws_a', 'workspace.json'), JSON.stringify({ sites: ['site_1'] }));
    await writeFile(join(dir, 'workspaces', 'ws_a', 'sites', 'site_1.json'), JSON.stringify({ draft: { assets: [{ url: `/assets/${inDraft}` }] }, restorePoints: [{ draft: { assets: [{ url: `/assets/${inRestorePoint}` }] } }] }));
    await writeFile(join(dir, 'workspaces', 'ws_b', 'workspace.json'), JSON.stringify({ note: `/assets/${inWorkspace}` }));
    await writeFile(join(dir, 'workspaces', 'ws_a.json.bak'), `/assets/${orphan}`); // a file beside the workspaces is none
    // Only documents count: a site folder's other files name nothing.
    await writeFile(join(dir, 'workspaces', 'ws_c', 'sites', 'notes.txt'), `/assets/${orphanBin}`);
    expect((await sweepAssetFiles(dir)).sort()).toEqual([orphan, `${orphan}.0123456789ab.tmp`, orphanBin].sort());
    expect((await readdir(join(dir, 'assets'))).sort()).toEqual([inDraft, inRestorePoint, inWorkspace, 'README', `${'f'.repeat(64)}.html`].sort());
    expect(await sweepAssetFiles(dir)).toEqual([]);
  });

  it('removes at most maxRemovals files a start', async () => {
    const many = await mkdtemp(join(tmpdir(), 'site-mcp-asset-sweep-many-'));
    try {
      await mkdir(join(many, 'assets'), { recursive: true });
      await mkdir(join(many, 'workspaces'), { recursive: true });
      for (const c of ['1', '2', '3']) await writeFile(join(many, 'assets', `${c.repeat(64)}.png`), 'x');
      expect(await sweepAssetFiles(many, { maxRemovals: 2 })).toHaveLength(2);
      expect(await readdir(join(many, 'assets'))).toHaveLength(1);
      expect(await sweepAssetFiles(many, { maxRemovals: 2 })).toHaveLength(1);
      expect(await readdir(join(many, 'assets'))).toEqual([]);
    } finally {
      await rm(many, { recursive: true, force: true });
    }
  });

  it('removes nothing when a folder it must read is not one', async () => {
    const odd = await mkdtemp(join(tmpdir(), 'site-mcp-asset-sweep-odd-'));
    try {
      await mkdir(join(odd, 'assets'), { recursive: true });
      await writeFile(join(odd, 'assets', `${'1'.repeat(64)}.png`), 'x');
      await mkdir(join(odd, 'workspaces', 'ws_a'), { recursive: true });
      await writeFile(join(odd, 'workspaces', 'ws_a', 'sites'), 'not a folder');
      await expect(sweepAssetFiles(odd)).rejects.toThrow(/ENOTDIR/);
      expect(await readdir(join(odd, 'assets'))).toEqual([`${'1'.repeat(64)}.png`]);
      await writeFile(join(odd, 'not-assets'), 'a file');
      await expect(sweepAssetFiles(odd, { assetsDir: join(odd, 'not-assets') })).rejects.toThrow(/ENOTDIR/);
    } finally {
      await rm(odd, { recursive: true, force: true });
    }
  });

  it('removes nothing when a document cannot be read, and nothing at all on a server without kept files', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'site-mcp-asset-sweep-broken-'));
    try {
      expect(await sweepAssetFiles(broken)).toEqual([]); // neither assets nor workspaces exist
      await mkdir(join(broken, 'assets'), { recursive: true });
      await writeFile(join(broken, 'assets', `${'1'.repeat(64)}.png`), 'x');
      await mkdir(join(broken, 'workspaces', 'ws_a', 'sites', 'site_1.json'), { recursive: true }); // a directory where a document should be
      await writeFile(join(broken, 'workspaces', 'ws_a', 'workspace.json'), '{}');
      await expect(sweepAssetFiles(broken)).rejects.toThrow();
      expect(await readdir(join(broken, 'assets'))).toEqual([`${'1'.repeat(64)}.png`]);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });
});

// The same on a real server: an import that fails after its fetches (fixtures part fail-next-write) leaves its copy
// until the next start, which removes it and keeps the copy of the site an earlier import committed.
describe('a failed import leaves no asset file after a restart rule:import-site-assets-revalidated', () => {
  let images: Server;
  let origin: string;
  beforeAll(async () => {
    images = createServer((req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(`png bytes of ${req.url}`)));
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => images.close(resolve));
  });

  it('keeps the committed site\'s copy and removes the failed import\'s', async () => {
    const test = await startTestServer('asset-sweep');
    let restarted: RunningServer | undefined;
    try {
      const { mcp, workspaceId } = await ownerWithConnection(test, ['site:read', 'content:write', 'settings:write'], { plan: 'agency' }, 'workspace');
      await test.fx.fetchAllowlist([origin]);
      const snapshot = (image: string) => ({
        format: 'PortableSiteV1',
        site: { name: image },
        pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Hi' } }] }],
        assets: [{ key: image, url: `${origin}/${image}.png`, alt: image }],
      });
      const kept = await mcp.callTool('import_site', { snapshot: snapshot('kept') });
      expect(kept.envelope.ok, JSON.stringify(kept.envelope)).toBe(true);
      await test.fx.failNextWrite(workspaceId);
      const failed = await mcp.callTool('import_site', { snapshot: snapshot('failed') });
      expect(failed.envelope.ok).toBe(false);
      const sha = (image: string) => createHash('sha256').update(`png bytes of /${image}.png`).digest('hex');
      expect((await readdir(join(test.dir, 'assets'))).sort()).toEqual([`${sha('kept')}.png`, `${sha('failed')}.png`].sort());
      await mcp.close();
      await test.server.close();
      restarted = await startServer({ host: '127.0.0.1', port: 0, dataDir: test.dir, allowedHosts: [] }, testMode(FIXTURES_SECRET));
      expect(await readdir(join(test.dir, 'assets'))).toEqual([`${sha('kept')}.png`]);
    } finally {
      await restarted?.close();
      if (!restarted) await test.server.close().catch(() => undefined);
      await rm(test.dir, { recursive: true, force: true });
    }
  });
});
