// Login CSRF (rule app-sign-in-same-origin): the app's sign-in form is taken from the service's own pages only. A
// post a browser says came from another site signs nobody in; the same form from the service's own origin does.
// What refuses it is the check every request of the server passes first (api/host-check.ts: a Host or an Origin
// that is not the service's), so the sign-in form needs no token of its own before a session exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let world: WorldWithPasswords;
beforeAll(async () => {
  test = await startTestServer('app-sign-in-origin');
  world = await test.fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
});
afterAll(async () => {
  await test?.stop();
});

const signIn = (headers: Record<string, string>) =>
  fetch(`${test.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ email: world.users.olive!.email, password: String(world.users.olive!.password), next: '/dashboard/connect' }),
  });

describe('the app sign-in form (rule app-sign-in-same-origin)', () => {
  it.each([
    ['another origin', { origin: 'https://attacker.example' }],
    ['an opaque origin (a sandboxed frame)', { origin: 'null' }],
  ])('rule:app-sign-in-same-origin — a post from %s is refused and sets no session', async (_, headers) => {
    const refused = await signIn(headers);
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(JSON.parse(await refused.text())).toMatchObject({ error: { code: 'forbidden_host' } });
  });

  it('rule:app-sign-in-same-origin — the same form from the service\'s own origin signs in', async () => {
    const origin = new URL(test.server.parts.baseUrl).origin;
    const answer = await signIn({ origin, 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(302);
    expect(answer.headers.getSetCookie().join(';')).toMatch(/smcp_session=/);
  });
});
