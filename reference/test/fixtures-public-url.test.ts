// The world answer's publicUrl (conformance/docs/fixtures-protocol.md, WorldResponse): where each site's live version is served, so
// a run without a declaration can read a live site (the source names a public address, not where it is). The
// address must be the real one: a published site answers there with its content, an unpublished one does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

describe('fixtures: a world names where each site is served', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('fixtures-public-url');
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('the publicUrl of a published site serves it, that of an unpublished one serves nothing', async () => {
    const world = await test.fx.world({
      users: [{ key: 'owner' }],
      sites: [
        { key: 'live', businessName: 'Live Bakery', published: true, members: { owner: 'owner' } },
        { key: 'draft', businessName: 'Draft Bakery', members: { owner: 'owner' } },
      ],
    });
    const live = world.sites.live!.publicUrl;
    const draft = world.sites.draft!.publicUrl;
    expect(live).toBe(`${test.url}/sites/${world.sites.live!.websiteId}/`);
    const page = await fetch(live!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Live Bakery');
    expect(draft).toBeDefined();
    expect((await fetch(draft!)).status).toBe(404);
  });
});
