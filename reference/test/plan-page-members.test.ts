// A plan's page and its decision exist only for members of the plan's website (rule plan-page-site-members-only).
// Otherwise /app/plans/<id> of site B would open for a workspace member who is no member of B, showing the
// invitee's email of a grant plan and the unpublished draft's text, while /app/sites/B answers 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import { startTestServer, type TestServer, signInCookie, appPage } from './harness.js';

let test: TestServer;
let world: WorldWithPasswords;

beforeAll(async () => {
  test = await startTestServer('plan-page-members');
  // olive owns "main"; sam owns "secret"; eddie edits "main" only. All three are of one company.
  world = await test.fx.world({
    users: [{ key: 'olive' }, { key: 'sam' }, { key: 'eddie' }],
    sites: [
      { key: 'main', members: { olive: 'owner', eddie: 'editor' } },
      { key: 'secret', members: { sam: 'owner' } },
    ],
  });
});
afterAll(async () => {
  await test?.stop();
});

const signIn = (user: { email: string; password?: string }) => signInCookie(test.url, user);
const page = (path: string, cookie: string) => appPage(test.url, path, cookie);

describe('plan pages', () => {
  it('rule:plan-page-site-members-only — a member of the company who is no member of the plan\'s website sees what a missing plan shows, and cannot decide it', async () => {
    const secret = world.sites.secret!.websiteId;
    const conn = await test.fx.connection({ userId: world.users.sam!.userId, websiteId: secret, scopes: ['publish', 'access:write'] });
    const mcp = new McpConnection(test.url, conn.token);
    const invitee = 'invitee-private@example.test';
    const prepared = await mcp.callTool('prepare_grant_access', { email: invitee, level: 'editor' });
    expect(prepared.envelope.ok, JSON.stringify(prepared.envelope)).toBe(true);
    const planId = prepared.envelope.data.planId as string;

    const sam = await signIn(world.users.sam!);
    const own = await page(`/app/plans/${planId}`, sam);
    expect(own.status).toBe(200);
    expect(own.html).toContain(invitee);

    for (const user of [world.users.eddie!, world.users.olive!]) {
      const cookie = await signIn(user);
      const seen = await page(`/app/plans/${planId}`, cookie);
      const missing = await page('/app/plans/plan_does_not_exist', cookie);
      expect(seen.status, user.email).toBe(404);
      expect(seen.html).not.toContain(invitee);
      expect(seen.html).toBe(missing.html);
      // The decision is refused as for a missing plan too, whatever the form token.
      const csrf = /name="csrf" value="([^"]+)"/.exec((await page(`/app/sites/${world.sites.main!.websiteId}/developers`, cookie)).html)?.[1] ?? 'none';
      const decided = await fetch(`${test.url}/app/plans/${planId}/decision`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ decision: 'decline', csrf }) });
      expect([403, 404]).toContain(decided.status);
      expect(await decided.text()).not.toContain(invitee);
    }
    expect((await test.fx.plan(planId, world.workspaceId) as { status: string }).status).toBe('awaiting_approval');
    await mcp.close();
  });
});
