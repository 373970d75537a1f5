// The pairing routes of the reference over HTTP (reference/http/pairing.ts; §4.1, §5.3–5.5): the start and poll
// refusing a body that is not theirs, /auth.md as Markdown with one line per scope, the delivery endpoint's refusals
// (no token, an unknown one, a malformed header, an unpublished site, a token whose company is gone) and the owner's
// approval screen /dashboard/connect: which websites it offers, when it offers a company-wide approval, and what
// approving, denying, an unknown code and a refused or failed approval answer. features/pairing.feature and
// app-pages.test.ts walk the happy path; these pin what they leave open (issue 9 item 5: the mutants they left alive).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let world: WorldResponse;
beforeAll(async () => {
  test = await startTestServer('pairing-routes');
  // olive owns "main" and only edits "side" (sam's); eddie edits "main". "draft" is olive's and not published.
  world = await test.fx.world({
    users: [{ key: 'olive' }, { key: 'eddie' }, { key: 'sam' }],
    sites: [
      { key: 'main', name: 'Main shop', members: { olive: 'owner', eddie: 'editor' }, published: true },
      { key: 'side', name: 'Side shop', members: { sam: 'owner', olive: 'editor' }, published: true },
      { key: 'draft', name: 'Draft shop', members: { olive: 'owner' } },
    ],
  });
});
afterAll(async () => {
  await test?.stop();
});

interface Started { userCode: string; deviceCode: string }
const postJson = async (path: string, body: unknown) => {
  const res = await fetch(`${test.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};
const start = async (body: Record<string, unknown> = { scopes: ['site:read', 'content:write'] }) => (await postJson('/v1/cli/pair/start', body)).json as Started;
const poll = async (deviceCode: string) => (await postJson('/v1/cli/pair/poll', { deviceCode })).json;

async function signIn(user: { email: string; password?: string }): Promise<string> {
  const res = await fetch(`${test.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: user.email, password: String(user.password), next: '/app/' }),
  });
  expect(res.status).toBe(302);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
const page = async (path: string, cookie: string) => {
  const res = await fetch(`${test.url}${path}`, { redirect: 'manual', headers: { cookie } });
  return { status: res.status, html: await res.text() };
};
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
const decide = async (cookie: string, form: Record<string, string>) => {
  const res = await fetch(`${test.url}/dashboard/connect`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, html: await res.text() };
};

describe('/dashboard/connect', () => {
  it('an approval whose write fails is a server error, not a refusal, and hands the tool nothing (§7.3: it rolls back whole)', async () => {
    const olive = await signIn(world.users.olive!);
    const started = await start();
    const csrf = csrfOf((await page(`/dashboard/connect?code=${started.userCode}`, olive)).html);
    await test.fx.failNextWrite(world.workspaceId);
    const failed = await decide(olive, { csrf, code: started.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(failed.status).toBe(500);
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });
    // The owner can approve it again, and then the tool gets a token that works.
    const again = await decide(olive, { csrf, code: started.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(again.status).toBe(200);
    expect((await poll(started.deviceCode)).status).toBe('approved');
  });
});
