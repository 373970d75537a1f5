// The authorization endpoint sends a browser to a client's redirect URI with an error only once the client has proven
// itself by redeeming an authorization code (rule oauth-no-error-redirect-unverified-client). Otherwise anyone
// could register a client with a redirect URI of their own, then any link to /oidc/auth?client_id=… with a deliberate
// error would send the browser off-site, with no session: an open redirect on this origin. The provider's own
// pages (its error page among them) cannot be framed either (rule oauth-provider-pages-frame-protection).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let world: WorldWithPasswords;
const resource = () => `${test.url}/api/mcp`;

beforeAll(async () => {
  test = await startTestServer('oauth-error-redirect');
  world = await test.fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
});
afterAll(async () => {
  await test?.stop();
});

async function register(redirectUri: string): Promise<string> {
  const res = await fetch(`${test.url}/oidc/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** An authorization request that fails on purpose: no PKCE challenge, which the provider requires. */
function failingAuthorization(clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  const url = new URL(`${test.url}/oidc/auth`);
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid site:read', state: 'xyz', ...extra })) url.searchParams.set(k, v);
  return url.href;
}

function expectNoRedirectTo(res: Response, html: string, redirectUri: string): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get('location')).toBeNull();
  expect(html).not.toContain(new URL(redirectUri).host);
}

const jar = new Map<string, string>();
async function go(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    if (pair!.slice(i + 1)) jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    else jar.delete(pair!.slice(0, i));
  }
  return res;
}
async function follow(res: Response, stopAt: string): Promise<Response | URL> {
  let current = res;
  for (let i = 0; i < 10 && current.status >= 300 && current.status < 400; i++) {
    const location = new URL(current.headers.get('location')!, test.url);
    if (location.href.startsWith(stopAt)) return location;
    current = await go(location.href);
  }
  return current;
}

/** One whole authorization as olive, to the token: the client has then redeemed a code. */
async function redeemOneCode(clientId: string, redirectUri: string): Promise<void> {
  const verifier = randomBytes(32).toString('base64url');
  const auth = new URL(`${test.url}/oidc/auth`);
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid site:read', resource: resource(), code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 's' })) auth.searchParams.set(k, v);
  const signInPage = await ((await follow(await go(auth.href), redirectUri)) as Response).text();
  const next = /name="next" value="([^"]+)"/.exec(signInPage)![1]!;
  const olive = world.users.olive!;
  const signedIn = await go(`${test.url}/app/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: olive.email, password: olive.password, next }) });
  const consent = await ((await follow(signedIn, redirectUri)) as Response).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(consent)![1]!;
  const action = /action="(\/oidc-interaction\/[^"]+\/consent)"/.exec(consent)![1]!;
  const approved = await go(`${test.url}${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams([['csrf', csrf], ['decision', 'approve'], ['websiteId', world.sites.main!.websiteId], ['scope', 'site:read']]) });
  const callback = (await follow(approved, redirectUri)) as URL;
  const token = await fetch(`${test.url}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: resource() }) });
  expect(token.status).toBe(200);
}

describe("the provider's own pages", () => {
  it("rule:oauth-provider-pages-frame-protection — the logout page and an error page cannot be framed or sniffed", async () => {
    for (const path of ['/oidc/session/end', '/oidc/auth?client_id=nobody']) {
      const res = await fetch(`${test.url}${path}`, { redirect: 'manual' });
      await res.text();
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('authorization errors', () => {
  it('rule:oauth-no-error-redirect-unverified-client — a client that never redeemed a code gets no error redirect: the browser stays here', async () => {
    const redirectUri = 'https://attacker.example/cb';
    const clientId = await register(redirectUri);
    // No PKCE challenge; the same with the error posted by a form; a silent request (prompt=none) with no session.
    const failures: Record<string, string>[] = [{}, { response_mode: 'form_post' }, { prompt: 'none', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }];
    for (const extra of failures) {
      const res = await fetch(failingAuthorization(clientId, redirectUri, extra), { redirect: 'manual' });
      const html = await res.text();
      expectNoRedirectTo(res, html, redirectUri);
      // rule oauth-provider-pages-frame-protection: the provider's error page cannot be framed.
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('rule:oauth-no-error-redirect-unverified-client — a client that redeemed a code still gets its error redirect, as OAuth says', async () => {
    const redirectUri = 'http://127.0.0.1:9/verified-callback';
    const clientId = await register(redirectUri);
    const before = await fetch(failingAuthorization(clientId, redirectUri), { redirect: 'manual' });
    expectNoRedirectTo(before, await before.text(), redirectUri);
    await redeemOneCode(clientId, redirectUri);
    const after = await fetch(failingAuthorization(clientId, redirectUri), { redirect: 'manual' });
    expect(after.status).toBe(303);
    const location = new URL(after.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('xyz');
  }, 60_000);
});
