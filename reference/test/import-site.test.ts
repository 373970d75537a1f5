// import_site as the reference answers it (reference/tools/import-site.ts; §4.3): the size cap at its exact boundary
// with the limit in the refusal's details (rule import-site-size-cap), the answer of a new import (rule
// import-result-fields: nothing inserted, updated or kept, no restore point) and the activity line with what was
// imported (rule import-site-audited). features/import-migrate.feature checks these black-box with a snapshot far
// over the cap and without reading the answer's empty lists; these pin what it leaves open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

/** A snapshot whose JSON is exactly `bytes` long (at most about 5,000): its text's body is padded to it. */
function snapshotOf(bytes: number) {
  const snapshot = {
    format: 'PortableSiteV1',
    site: { name: 'Copy' },
    pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/intro', type: 'text', content: { body: '' } }] }],
  };
  const bare = Buffer.byteLength(JSON.stringify(snapshot));
  snapshot.pages[0]!.sections[0]!.content.body = 'x'.repeat(bytes - bare);
  expect(Buffer.byteLength(JSON.stringify(snapshot))).toBe(bytes);
  return snapshot;
}

// A cap small enough to reach exactly; the real one (5 MiB) is the feature's.
const CAP = 2_000;
let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('import-site', {}, { fakes: { limits: { ...limits, importMaxBytes: { value: CAP } } } });
});
afterAll(async () => {
  await test?.stop();
});

describe('import_site', () => {
  it('rule:import-site-size-cap — a snapshot of exactly the cap is imported; one byte more is refused with the cap in its details', async () => {
    const c = await ownerWithConnection(test, ['site:read', 'content:write'], { plan: 'business' });
    const at = (await c.mcp.callTool('import_site', { snapshot: snapshotOf(CAP) })).envelope;
    expect(at.ok, JSON.stringify(at)).toBe(true);
    const over = (await c.mcp.callTool('import_site', { snapshot: snapshotOf(CAP + 1) })).envelope;
    expect(over.error).toMatchObject({ code: 'over_cap', details: { limit: CAP } });
    expect(over.error?.message).toBe(`The snapshot is ${CAP + 1} bytes; imports are capped at ${CAP} bytes. Split it or drop large collections.`);
    await c.mcp.close();
  });

  it('rule:import-result-fields rule:import-site-audited — a new import answers with nothing merged, and its activity line says what came in', async () => {
    const c = await ownerWithConnection(test, ['site:read', 'content:write'], { plan: 'business' });
    const snapshot = { ...snapshotOf(500), assets: [{ key: 'meta', url: 'https://169.254.169.254/latest/meta-data' }] };
    const answer = (await c.mcp.callTool('import_site', { snapshot })).envelope;
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    const data = answer.data as Record<string, unknown>;
    expect(data).toMatchObject({ merged: false, restorePointId: null, keptFields: [], inserted: [], updated: [] });
    expect(data.websiteId).not.toBe(c.websiteId);
    expect(data.editorUrl).toBe(`${test.url}/dashboard/sites/${String(data.websiteId)}/editor`);
    expect(data.assetsSkipped).toHaveLength(1);
    const entries = (await test.fx.activity(c.connectionId)).entries.filter((e) => e.name === 'import_site');
    expect(entries.map((e) => e.summary)).toEqual(['site imported (1 pages, 1 assets skipped)']);
    await c.mcp.close();
  });
});
