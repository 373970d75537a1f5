// Documents stay bounded (rules store-document-size-capped, import-merge-restore-point): the store refuses to write a
// document over spec/limits.json documentMaxBytes and writes nothing, and a site keeps its restore points within
// restorePoints, the newest always kept. Every write parses and serializes its documents whole, so a site that grew
// without bound, merge after merge, held every write of its workspace longer and longer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentTooLargeError, Store } from '../infra/store/store.js';
import { newWorkspaceDoc } from '../domain/workspace.js';
import { newSite } from '../domain/site.js';
import { keepRestorePoint } from '../domain/import-merge.js';
import { limits } from '../catalogue.js';
import { startServer } from '../app.js';
import { testMode } from '../testing/index.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-document-size-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rule:store-document-size-capped', () => {
  it('refuses a site document over documentMaxBytes and writes nothing; one under it is written', async () => {
    const store = await Store.open(dir);
    await store.create({ ...newWorkspaceDoc({ companyName: 'Co', plan: 'free', ownerUserId: 'u1', credits: 3, aiConsent: true }, new Date(0)), id: 'ws_a' });
    const site = newSite({ name: 'Main', businessName: 'Co', members: { u1: 'owner' }, now: new Date(0) });
    await store.transact('ws_a', (ws) => void (ws.sites[site.websiteId] = site));
    const max = limits.documentMaxBytes.value;
    const refused = store.transact('ws_a', (ws) => void (ws.sites[site.websiteId]!.name = 'x'.repeat(max)));
    await expect(refused).rejects.toBeInstanceOf(DocumentTooLargeError);
    await expect(refused).rejects.toMatchObject({ maxBytes: max });
    expect((await store.read('ws_a'))!.sites[site.websiteId]!.name).toBe('Main');
    await store.transact('ws_a', (ws) => void (ws.sites[site.websiteId]!.name = 'x'.repeat(1000)));
    expect((await store.read('ws_a'))!.sites[site.websiteId]!.name).toHaveLength(1000);
  }, 60_000);
});

describe('rule:import-merge-restore-point — a site keeps its restore points within their limits, the newest always', () => {
  const site = () => newSite({ name: 'Main', businessName: 'Co', members: { u1: 'owner' }, now: new Date(0) });
  const point = (id: string, text = '') => ({ restorePointId: id, createdAt: '2026-01-01T00:00:00.000Z', draft: { ...site().draft, pages: text ? [{ pageId: 'p', key: 'p', title: text, slug: 'p', sections: [] }] : [] } as never });

  it('at most max of them, the oldest dropped first', () => {
    const s = site();
    for (let i = 0; i < 7; i++) keepRestorePoint(s, point(`r${i}`), { max: 5, maxBytes: 1e9 });
    expect(s.restorePoints.map((p) => p.restorePointId)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6']);
    expect(s.restorePoints.every((p) => typeof p.bytes === 'number' && p.bytes > 0)).toBe(true);
  });

  it('together at most maxBytes, the oldest dropped first, and the newest kept even alone over it', () => {
    const s = site();
    // Room for two and a half of these.
    const maxBytes = Math.floor(Buffer.byteLength(JSON.stringify(point('m', 'x'.repeat(400)).draft)) * 2.5);
    for (let i = 0; i < 3; i++) keepRestorePoint(s, point(`r${i}`, 'x'.repeat(400)), { max: 5, maxBytes });
    expect(s.restorePoints.map((p) => p.restorePointId)).toEqual(['r1', 'r2']);
    keepRestorePoint(s, point('big', 'x'.repeat(maxBytes * 2)), { max: 5, maxBytes });
    expect(s.restorePoints.map((p) => p.restorePointId)).toEqual(['big']);
  });
});

describe('rule:store-document-size-capped — through a tool call', () => {
  it('a change the store refuses as too large answers over_cap with the cap and both sizes, not internal_error', async () => {
    // The store as composed, refusing every write as too large while `refuse` is set (the real refusal is the test
    // above; reaching 64 MiB through tools takes a dozen of the largest imports).
    let refuse = false;
    const server = await startServer(
      { host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] },
      {
        store: (store) =>
          new Proxy(store, {
            get(target, key) {
              if (key === 'transact' && refuse) return () => Promise.reject(new DocumentTooLargeError(70 * 1024 * 1024, limits.documentMaxBytes.value));
              const value = Reflect.get(target, key, target);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
      },
      testMode('document-size-secret'),
    );
    try {
      const fx = new FixturesClient(server.url, 'document-size-secret');
      const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
      const home = world.sites.main!.pages.home!;
      const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read', 'content:write'] });
      const mcp = new McpConnection(server.url, token);
      try {
        refuse = true;
        const { envelope } = await mcp.callTool('update_section_text', { sectionId: home.sections.hero!, field: 'heading', text: 'Too much' });
        refuse = false;
        expect(envelope.ok).toBe(false);
        expect(envelope.error).toMatchObject({ code: 'over_cap', details: { limit: limits.documentMaxBytes.value } });
        expect(envelope.error!.message).toMatch(/70\.0 MiB, over the 64\.0 MiB/);
      } finally {
        await mcp.close();
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});
