// Rule oauth-admission-every-path-spelling: the identity provider's router answers a route in any letter case and
// with a trailing slash, so the admission checks (rules oauth-registration-throttled-per-address,
// oauth-registration-metadata-capped, oauth-authorization-requests-bounded) must meet every such spelling, not one
// string. Each spelling is sent to the real provider, from loopback addresses of the test's own (all of 127.0.0.0/8
// is loopback on Linux), and what it stored is counted. The flood itself is `npm run bench -- oauth-state`.
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { routesTo } from '../auth/oauth-admission.js';
import { postFrom, startTestServer, type TestServer } from './harness.js';
import { getFromAddress } from '../../conformance/lib/local-address.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const metadata = (name: string, padding = '') => JSON.stringify({ client_name: name + padding, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });

/** Every letter case of `word` (2^n spellings). */
function cases(word: string): string[] {
  let out = [''];
  for (const ch of word) out = out.flatMap((p) => (ch.toLowerCase() === ch.toUpperCase() ? [p + ch] : [p + ch.toLowerCase(), p + ch.toUpperCase()]));
  return out;
}

/** Spellings of `/oidc/<word>`: every letter case, each bare and with one and two trailing slashes. */
const spellings = (word: string) => cases(word).flatMap((w) => [`/oidc/${w}`, `/oidc/${w}/`, `/oidc/${w}//`]);

let test: TestServer;

beforeAll(async () => {
  // No fixtures protocol: registration and authorization requests need no account.
  test = await startTestServer('oauth-admission', {}, { fixtures: false });
  // The provider is made, and its keys stored, on the first /oidc request.
  expect((await fetch(`${test.url}/oidc/.well-known/openid-configuration`)).status).toBe(200);
});

afterAll(async () => {
  await test?.stop();
});

/** The files under the data directory's oidc/ (clients, interactions, keys). */
async function storedFiles(): Promise<number> {
  const entries = await readdir(join(test.dir, 'oidc'), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

async function register(path: string, from: string, body: string) {
  const answer = await postFrom(test.url, path, from, 'application/json', body);
  // A path the provider does not route answers Koa's plain "Not Found".
  const json = answer.text.startsWith('{') ? (JSON.parse(answer.text) as { client_id?: string; error?: string }) : {};
  return { status: answer.status, json };
}

function authorizationUrl(path: string, clientId: string): string {
  const url = new URL(`${test.url}${path}`);
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = { client_id: clientId, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid site:read', code_challenge: challenge, code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.href;
}

describe('rule:oauth-admission-every-path-spelling', () => {
  it('routesTo folds case and one trailing slash, as the provider routes', () => {
    for (const path of ['/reg', '/reg/', '/REG', '/Reg/', '/rEg']) expect(routesTo(path, '/reg'), path).toBe(true);
    for (const path of ['/reg//', '/regs', '/re', '/%72eg', '/reg/x']) expect(routesTo(path, '/reg'), path).toBe(false);
    expect(routesTo('/AUTH/abc', '/auth', { below: true })).toBe(true);
    expect(routesTo('/auth/abc', '/auth')).toBe(false);
  });

  it('rule:oauth-registration-metadata-capped — metadata over the cap is refused at every spelling the provider answers, and nothing is stored', async () => {
    const stored = await storedFiles();
    const over = metadata('over', 'x'.repeat(limits.oauthRegistration.maxMetadataBytes));
    const answered: Record<string, number> = {};
    let n = 0;
    for (const path of spellings('reg')) answered[path] = (await register(path, `127.71.${Math.floor(n / 200)}.${1 + (n++ % 200)}`, over)).status;
    // Each spelling is either not routed by the provider (404) or refused before it is read (413).
    for (const [path, status] of Object.entries(answered)) expect([404, 413], `${path} answered ${status}`).toContain(status);
    // The spellings the provider routes (every case, bare or with one slash) all met the cap.
    expect(Object.values(answered).filter((s) => s === 413)).toHaveLength(cases('reg').length * 2);
    expect(await storedFiles()).toBe(stored);
  }, 60_000);

  it('rule:oauth-registration-throttled-per-address — one address\'s allowance is shared by every spelling, then each is refused with 429', async () => {
    const from = '127.71.10.1';
    const { limit } = limits.oauthRegistration.perAddress;
    const routed = spellings('reg').filter((p) => !p.endsWith('//'));
    for (let i = 0; i < limit; i++) expect((await register(routed[i % routed.length]!, from, metadata(`client ${i}`))).status, routed[i % routed.length]).toBe(201);
    const stored = await storedFiles();
    for (const path of spellings('reg')) expect([404, 429], path).toContain((await register(path, from, metadata('one too many'))).status);
    expect(await storedFiles()).toBe(stored);
  }, 60_000);

  it('rule:oauth-authorization-requests-bounded — one address\'s allowance of authorization requests is shared by every spelling, and none past it stores an interaction', async () => {
    const clientId = (await register('/oidc/reg', '127.71.20.1', metadata('authorizing'))).json.client_id!;
    expect(clientId).toBeTruthy();
    const from = '127.71.20.2';
    const { limit } = limits.oauthAuthorization.perAddress;
    const routed = spellings('auth').filter((p) => !p.endsWith('//'));
    for (let i = 0; i < limit; i++) {
      const path = routed[i % routed.length]!;
      expect((await getFromAddress(authorizationUrl(path, clientId), from)).status, path).toBe(303);
    }
    const stored = await storedFiles();
    // Past the allowance: every spelling, and the resume route below it, is refused or not routed at all.
    for (const path of [...spellings('auth'), '/oidc/AUTH/some-uid', '/oidc/Auth/some-uid/']) {
      const status = (await getFromAddress(authorizationUrl(path, clientId), from)).status;
      expect([404, 429], `${path} answered ${status}`).toContain(status);
    }
    expect(await storedFiles()).toBe(stored);
  }, 60_000);
});
