// A pairing belongs to the workspace whose signed-in person first opens or decides its code (rule
// pairing-bound-to-first-workspace), and user-code guesses are throttled per person and per client address (rule
// pairing-code-guesses-throttled). Otherwise an owner of another workspace who knew a user code could see,
// deny or approve someone else's pending pairing, which would hand that person's tool a token to the other
// owner's website.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import type { WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';
import { startTestServer, type TestServer, signInCookie } from './harness.js';

let test: TestServer;
let victims: WorldResponse;
let others: WorldResponse;
const { perUser, perAddress } = limits.pairCode;

beforeAll(async () => {
  test = await startTestServer('pairing-bound');
  victims = await test.fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' }, published: true }] });
  // Another company: mallory owns "evil"; the other users exist to guess from one address.
  others = await test.fx.world({
    users: [{ key: 'mallory' }, { key: 'm1' }, { key: 'm2' }, { key: 'm3' }, { key: 'm4' }, { key: 'm5' }],
    sites: [{ key: 'evil', members: { mallory: 'owner', m1: 'owner', m2: 'owner', m3: 'owner', m4: 'owner', m5: 'owner' } }],
  });
});
afterAll(async () => {
  await test?.stop();
});

interface Started { userCode: string; deviceCode: string }
const postJson = async (path: string, body: unknown) => (await fetch(`${test.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, any>>;
const start = async () => (await postJson('/v1/cli/pair/start', { scopes: ['site:read', 'content:write'] })) as Started;
const poll = (deviceCode: string) => postJson('/v1/cli/pair/poll', { deviceCode });

const signIn = (user: { email: string; password?: string }) => signInCookie(test.url, user);
const view = async (code: string, cookie: string) => {
  const res = await fetch(`${test.url}/dashboard/connect?code=${encodeURIComponent(code)}`, { redirect: 'manual', headers: { cookie } });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), html: await res.text() };
};
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
/** The session's CSRF token, read from a pairing this person opens themselves. */
const csrfFor = async (cookie: string) => csrfOf((await view((await start()).userCode, cookie)).html);
const decide = async (cookie: string, form: Record<string, string>, from?: string) => {
  const res = await postFromAddress(`${test.url}/dashboard/connect`, from, { cookie, 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams(form).toString());
  return { status: res.status, retryAfter: res.headers.get('retry-after'), html: await res.text() };
};
const wrongCode = (i: number) => `ZZZZ-${String(i).padStart(4, '2').replace(/[01]/g, '2')}`;

describe('pairing bound to the first workspace', () => {
  it('rule:pairing-bound-to-first-workspace — once the requester opened the code, an owner of another company can neither see, deny nor approve it', async () => {
    const olive = await signIn(victims.users.olive!);
    const mallory = await signIn(others.users.mallory!);
    const started = await start();
    const opened = await view(started.userCode, olive);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain('value="approve"');

    // The other company sees exactly what an unknown code shows.
    const seen = await view(started.userCode, mallory);
    const unknown = await view('ABCD-EFGH', mallory);
    expect(seen.status).toBe(404);
    expect(seen.html).not.toContain('value="approve"');
    expect(seen.html.replace(started.userCode, 'ABCD-EFGH')).toBe(unknown.html);

    const csrf = await csrfFor(mallory);
    const denied = await decide(mallory, { csrf, code: started.userCode, decision: 'deny' });
    expect(denied.status).toBe(404);
    const approved = await decide(mallory, { csrf, code: started.userCode, decision: 'approve', websiteId: others.sites.evil!.websiteId, scope: 'site:read' });
    expect(approved.status).toBe(404);
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });

    // Its own company's owner still approves it, for her own website.
    const yes = await decide(olive, { csrf: csrfOf(opened.html), code: started.userCode, decision: 'approve', websiteId: victims.sites.main!.websiteId, scope: 'site:read' });
    expect(yes.status).toBe(200);
    expect(await poll(started.deviceCode)).toMatchObject({ status: 'approved', websiteId: victims.sites.main!.websiteId });
  });

  it('rule:pairing-bound-to-first-workspace — an approval through any path is refused for a pairing bound elsewhere', async () => {
    const olive = await signIn(victims.users.olive!);
    const started = await start();
    expect((await view(started.userCode, olive)).status).toBe(200);
    await expect(test.fx.approvePairing(started.userCode, { userId: others.users.mallory!.userId, websiteId: others.sites.evil!.websiteId, scopes: ['site:read'] })).rejects.toThrow(/404|not_found|unknown/i);
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });
  });
});

describe('user-code guesses', () => {
  it('rule:pairing-code-guesses-throttled — past the wrong codes one person may try, even a right code answers 429 with Retry-After', async () => {
    const m1 = await signIn(others.users.m1!);
    for (let i = 0; i < perUser.limit; i++) expect((await view(wrongCode(i), m1)).status).toBe(404);
    const started = await start();
    const refused = await view(started.userCode, m1);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.html).not.toContain(started.userCode);
    // Refused before it looked: the pairing is still free for its own company.
    const olive = await signIn(victims.users.olive!);
    expect((await view(started.userCode, olive)).status).toBe(200);
  });

  it('rule:pairing-code-guesses-throttled — wrong codes from one address count across the people using it', async () => {
    const from = '127.0.0.23';
    const cookies = [await signIn(others.users.m2!), await signIn(others.users.m3!), await signIn(others.users.m4!), await signIn(others.users.m5!)];
    const csrfs = await Promise.all(cookies.map(csrfFor));
    let guesses = 0;
    // Each person stays under their own limit; together they pass the address's.
    for (let round = 0; guesses < perAddress.limit; round++) {
      for (let who = 0; who < cookies.length && guesses < perAddress.limit; who++, guesses++) {
        expect((await decide(cookies[who]!, { csrf: csrfs[who]!, code: wrongCode(guesses), decision: 'deny' }, from)).status).toBe(404);
      }
      expect(round).toBeLessThan(perUser.limit);
    }
    const started = await start();
    const refused = await decide(cookies[0]!, { csrf: csrfs[0]!, code: started.userCode, decision: 'deny' }, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });
  });
});
