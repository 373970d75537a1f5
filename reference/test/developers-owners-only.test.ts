// Developers settings (connections and their activity) are for owners of the website only (rule
// developers-settings-owners-only, §1.3 "Owners manage connections"). The page shows
// every connection's name, token prefix, scopes and the activity of each call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import { startTestServer, type TestServer, signInCookie, appPage } from './harness.js';

let test: TestServer;
let world: WorldWithPasswords;
beforeAll(async () => {
  test = await startTestServer('developers-owners-only');
  world = await test.fx.world({ users: [{ key: 'olive' }, { key: 'eddie' }, { key: 'vera' }], sites: [{ key: 'main', members: { olive: 'owner', eddie: 'editor', vera: 'viewer' } }] });
});
afterAll(async () => {
  await test?.stop();
});

const signIn = (user: { email: string; password?: string }) => signInCookie(test.url, user);
const page = (path: string, cookie: string) => appPage(test.url, path, cookie);

describe('Developers settings', () => {
  it('rule:developers-settings-owners-only — an editor or a viewer of the website is refused the page, and its site page does not lead there', async () => {
    const websiteId = world.sites.main!.websiteId;
    const { token } = await test.fx.connection({ userId: world.users.olive!.userId, websiteId, scopes: ['site:read'] });
    const mcp = new McpConnection(test.url, token);
    expect((await mcp.callTool('list_pages', {})).envelope.ok).toBe(true);
    await mcp.close();
    const prefix = token.slice(0, 14);

    const olive = await signIn(world.users.olive!);
    const own = await page(`/app/sites/${websiteId}/developers`, olive);
    expect(own.status).toBe(200);
    expect(own.html).toContain(prefix);
    expect(own.html).toContain('list_pages');
    expect((await page(`/app/sites/${websiteId}`, olive)).html).toContain(`/app/sites/${websiteId}/developers`);

    for (const user of [world.users.eddie!, world.users.vera!]) {
      const cookie = await signIn(user);
      const refused = await page(`/app/sites/${websiteId}/developers`, cookie);
      expect(refused.status, user.email).toBe(403);
      expect(refused.html).not.toContain(prefix);
      expect(refused.html).not.toContain('list_pages');
      expect((await page(`/app/sites/${websiteId}`, cookie)).html).not.toContain(`/app/sites/${websiteId}/developers`);
    }
  });
});
