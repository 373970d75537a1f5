// The identity provider's state is bounded for callers with no account: registration is
// counted per client address and capped in size (rules oauth-registration-throttled-per-address,
// oauth-registration-metadata-capped), storing a client or an interaction rewrites that record alone whatever else is
// stored (rule oauth-state-per-record), and a client that never redeemed a code expires (rule
// oauth-unused-clients-expire). Requests come from distinct loopback addresses (all of 127.0.0.0/8 is loopback on
// Linux) so each address's count is the real socket's. The heavy reproduction is `npm run bench -- oauth-state`.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterPayload } from 'oidc-provider';
import { limits } from '../catalogue.js';
import { openOidcState } from '../auth/oauth-adapter.js';
import { oauthAdmission } from '../auth/oauth-admission.js';
import { SlidingWindowLimiter } from '../domain/rate-limit.js';
import Koa from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { postFrom, startTestServer, type TestServer } from './harness.js';
import { getFromAddress } from '../../conformance/lib/local-address.js';

const registration = limits.oauthRegistration;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let test: TestServer;

beforeAll(async () => {
  // No fixtures protocol: registration and authorization requests need no account.
  test = await startTestServer('oauth-state', {}, { fixtures: false });
});

afterAll(async () => {
  await test?.stop();
});

const metadata = (name: string) => JSON.stringify({ client_name: name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });

async function register(from: string, body: string) {
  const answer = await postFrom(test.url, '/oidc/reg', from, 'application/json', body);
  return { ...answer, json: JSON.parse(answer.text || '{}') as { client_id?: string; error?: string; error_description?: string } };
}

let authorizations = 0;
/**
 * An authorization request for `clientId`, as a browser sends it: the provider stores an interaction. From `from`, or
 * else from a loopback address of its own for every fifty, so that no address reaches its allowance (rule
 * oauth-authorization-requests-bounded). Answers the status, and Retry-After and the body's error when refused.
 */
async function authorize(clientId: string, from = `127.68.${Math.floor(authorizations / 50 / 250)}.${1 + (Math.floor(authorizations / 50) % 250)}`): Promise<number> {
  return (await authorizeAnswer(clientId, from)).status;
}

async function authorizeAnswer(clientId: string, from: string): Promise<{ status: number; retryAfter?: string; error?: string }> {
  authorizations++;
  const auth = new URL(`${test.url}/oidc/auth`);
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = { client_id: clientId, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid site:read', code_challenge: challenge, code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(query)) auth.searchParams.set(k, v);
  const res = await getFromAddress(auth.href, from);
  const error = ((await res.json().catch(() => ({}))) as { error?: string }).error;
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, ...(retryAfter ? { retryAfter } : {}), ...(error ? { error } : {}) };
}

/** Every file under the data directory's oidc/, with what changes when it is rewritten (inode, mtime, size). */
async function snapshot(): Promise<Map<string, { signature: string; size: number }>> {
  const files = new Map<string, { signature: string; size: number }>();
  // No oidc/ yet: the provider is made on the first /oidc request.
  for (const entry of await readdir(join(test.dir, 'oidc'), { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const s = await stat(path, { bigint: true }).catch(() => undefined);
    if (s) files.set(path, { signature: `${s.ino}:${s.mtimeNs}:${s.size}`, size: Number(s.size) });
  }
  return files;
}

/** The bytes of the files `act` created or replaced under oidc/. */
async function bytesRewrittenBy(act: () => Promise<unknown>): Promise<number> {
  const before = await snapshot();
  await act();
  let bytes = 0;
  for (const [path, file] of await snapshot()) if (before.get(path)?.signature !== file.signature) bytes += file.size;
  return bytes;
}

const clientFiles = async () => (await snapshot()).size;

describe('OAuth registration admission', () => {
  it('rule:oauth-registration-throttled-per-address — one address gets its allowance, then 429 with Retry-After and stores nothing; another address is unaffected', async () => {
    const { limit, windowSeconds } = registration.perAddress;
    for (let i = 0; i < limit; i++) expect((await register('127.66.0.2', metadata(`flood ${i}`))).status).toBe(201);
    const stored = await clientFiles();
    const refused = await register('127.66.0.2', metadata('one too many'));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.json.error).toBe('rate_limited');
    expect(refused.json.error_description).toContain(`${limit} per ${windowSeconds} seconds`);
    expect(await clientFiles()).toBe(stored);
    expect((await register('127.66.0.3', metadata('elsewhere'))).status).toBe(201);
  }, 60_000);

  it('rule:oauth-registration-metadata-capped — metadata over the cap, or of unannounced size, is refused and stores nothing', async () => {
    const stored = await clientFiles();
    const over = metadata('x'.repeat(registration.maxMetadataBytes));
    const refused = await register('127.66.1.2', over);
    expect(refused.status).toBe(413);
    expect(refused.json.error).toBe('invalid_client_metadata');
    // The finding's 50 KB registrations, under oidc-provider's own 56 KB body limit.
    expect((await register('127.66.1.3', metadata('x'.repeat(50_000)))).status).toBe(413);
    // Chunked, without Content-Length: its size is not known before reading it.
    const chunked = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${test.url}/oidc/reg`);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: '127.66.1.4', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write(over.slice(0, 1000));
      req.end(over.slice(1000));
    });
    expect(chunked).toBe(411);
    expect(await clientFiles()).toBe(stored);
    // Just under the cap is still a client.
    const fits = metadata('x'.repeat(registration.maxMetadataBytes - metadata('').length));
    expect(Buffer.byteLength(fits)).toBe(registration.maxMetadataBytes);
    expect((await register('127.66.1.5', fits)).status).toBe(201);
  }, 60_000);
});

describe('OAuth 2.1: the code flow only', () => {
  it('rule:oauth-code-flow-only — the metadata advertises no implicit grant or id_token response type, and an implicit client does not register', async () => {
    const metadata = (await (await fetch(`${test.url}/.well-known/oauth-authorization-server/oidc`)).json()) as { response_types_supported: string[]; grant_types_supported: string[] };
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.grant_types_supported).not.toContain('implicit');
    const implicit = JSON.stringify({ client_name: 'implicit', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['implicit'], response_types: ['id_token'] });
    const refused = await register('127.66.3.2', implicit);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('invalid_client_metadata');
  }, 60_000);
});

describe('OAuth redirect URIs', () => {
  it('rule:oauth-redirect-https-or-loopback — plain http to another host is refused; https, loopback http and a private-use scheme register', async () => {
    const withRedirect = (uri: string) => JSON.stringify({ client_name: 'redirects', redirect_uris: [uri], application_type: uri.startsWith('http') ? 'web' : 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
    const refused = await register('127.66.2.2', withRedirect('http://attacker.example/callback'));
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('invalid_redirect_uri');
    expect((await register('127.66.2.2', withRedirect('http://10.0.0.1/callback'))).status).toBe(400);
    for (const uri of ['https://chat.example/callback', 'http://localhost:33418/callback', 'http://127.0.0.1:9/callback', 'http://[::1]:8080/cb', 'com.example.app:/oauth' /* a native app's private-use scheme */]) {
      expect((await register('127.66.2.3', withRedirect(uri))).status, uri).toBe(201);
    }
  }, 60_000);
});

describe('OAuth authorization admission', () => {
  it('rule:oauth-authorization-requests-bounded — one address gets its allowance of authorization requests, then 429 with Retry-After and no interaction stored', async () => {
    const client = (await register('127.69.0.1', metadata('authorizing'))).json.client_id!;
    const { limit, windowSeconds } = limits.oauthAuthorization.perAddress;
    for (let i = 0; i < limit; i++) expect(await authorize(client, '127.69.0.2')).toBe(303);
    const stored = (await snapshot()).size;
    const refused = await authorizeAnswer(client, '127.69.0.2');
    expect(refused).toMatchObject({ status: 429, error: 'rate_limited' });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(windowSeconds);
    expect((await snapshot()).size).toBe(stored);
    expect(await authorize(client, '127.69.0.3')).toBe(303);
  }, 60_000);

  it('rule:oauth-authorization-requests-bounded — while the server holds its most sign-ins in flight, an authorization request is refused with 503 before the provider reads it', async () => {
    let live = 2;
    let reached = 0;
    const app = new Koa();
    app.use(oauthAdmission({ limiter: new SlidingWindowLimiter(), limits: { ...limits, oauthAuthorization: { perAddress: { limit: 1_000, windowSeconds: 60 }, maxInteractions: 2 } }, liveInteractions: async () => live }));
    app.use((ctx) => {
      reached++;
      ctx.status = 303;
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const full = await fetch(`${url}/Auth/?client_id=x`, { redirect: 'manual' });
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('60');
      expect(((await full.json()) as { error: string }).error).toBe('temporarily_unavailable');
      expect(reached).toBe(0);
      live = 1;
      expect((await fetch(`${url}/auth?client_id=x`, { redirect: 'manual' })).status).toBe(303);
      // Other provider routes are not counted.
      live = 2;
      expect((await fetch(`${url}/token`, { redirect: 'manual' })).status).toBe(303);
    } finally {
      server.close();
    }
  });

  it('rule:oauth-authorization-requests-bounded — the sign-ins in flight are the Interaction records not expired', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-mcp-interactions-'));
    try {
      let now = Date.UTC(2026, 0, 1);
      const state = await openOidcState(dir, { unusedClientSeconds: 60, now: () => now });
      const Interaction = new state.Adapter('Interaction');
      await Interaction.upsert('a', { uid: 'a' } as AdapterPayload, 600);
      await Interaction.upsert('b', { uid: 'b' } as AdapterPayload, 60);
      expect(await state.liveInteractions()).toBe(2);
      now += 61_000;
      expect(await state.liveInteractions()).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('OAuth state on disk', () => {
  it('rule:oauth-state-per-record — a registration and an authorization request rewrite as many bytes with 300 records stored as with 10', async () => {
    const clients: string[] = [];
    let sent = 0;
    /** Registers up to `count` clients, five per address so that no address reaches the throttle. */
    const registerUpTo = async (count: number) => {
      for (let budget = 2 * count; clients.length < count && budget > 0; budget--, sent++) {
        const answer = await register(`127.67.${Math.floor(sent / 5 / 250)}.${1 + (Math.floor(sent / 5) % 250)}`, metadata(`client ${sent} ${'x'.repeat(1000)}`));
        expect(answer.status).toBe(201);
        clients.push(answer.json.client_id!);
      }
    };
    let authorized = 0;
    const authorizeUpTo = async (count: number) => {
      for (; authorized < count; authorized++) expect(await authorize(clients[authorized % clients.length]!)).toBe(303);
    };
    const measure = async () => ({
      registration: await bytesRewrittenBy(() => registerUpTo(clients.length + 1)),
      authorization: await bytesRewrittenBy(() => authorizeUpTo(authorized + 1)),
    });

    await registerUpTo(10);
    await authorizeUpTo(10);
    const few = await measure();
    await registerUpTo(300);
    await authorizeUpTo(300);
    const many = await measure();
    console.log(`oauth-state: bytes rewritten at 10 and 300 records: registration ${few.registration} and ${many.registration}, authorization ${few.authorization} and ${many.authorization}`);
    // Today one record each (about 1.5 KB); rewriting a whole model grew 30-fold over these 290 records.
    expect(few.registration).toBeGreaterThan(0);
    expect(few.authorization).toBeGreaterThan(0);
    expect(many.registration / few.registration).toBeLessThan(1.5);
    expect(many.authorization / few.authorization).toBeLessThan(1.5);
  }, 120_000);
});

describe('unused clients', () => {
  it('rule:oauth-unused-clients-expire — a registration stores its client record and nothing that would outlive it', async () => {
    await (await fetch(`${test.url}/oidc/.well-known/openid-configuration`)).text(); // the provider and its keys made
    const before = await snapshot();
    expect((await register('127.66.3.2', metadata('alone'))).status).toBe(201);
    const written = [...(await snapshot())].filter(([path, file]) => before.get(path)?.signature !== file.signature).map(([path]) => path.slice(join(test.dir, 'oidc').length + 1));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^Client\//);
  });


  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-mcp-oauth-records-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('rule:oauth-unused-clients-expire rule:oauth-state-survives-restart — a client that never redeemed a code is forgotten after its lifetime, one that did is kept, across a restart', async () => {
    let now = Date.UTC(2026, 0, 1);
    const unusedClientSeconds = 3600;
    const state = await openOidcState(dir, { unusedClientSeconds, now: () => now });
    const Client = new state.Adapter('Client');
    const Code = new state.Adapter('AuthorizationCode');
    // oidc-provider stores a client without a lifetime (no expiresIn).
    await Client.upsert('unused', { client_id: 'unused' } as AdapterPayload, undefined as unknown as number);
    await Client.upsert('used', { client_id: 'used' } as AdapterPayload, undefined as unknown as number);
    await Code.upsert('code-1', { clientId: 'used', grantId: 'grant-1' } as AdapterPayload, 60);
    await Code.consume('code-1');
    expect((await Code.find('code-1'))?.consumed).toBeTypeOf('number');

    now += (unusedClientSeconds - 1) * 1000;
    expect(await Client.find('unused')).toBeDefined();
    now += 2000;
    expect(await Client.find('unused')).toBeUndefined();
    expect(await Client.find('used')).toEqual({ client_id: 'used' });
    expect(await state.sweep()).toBe(2); // the unused client and the expired code
    expect(await readdir(join(dir, 'oidc', 'Client'))).toHaveLength(1);

    // One more unused client, and a restart after its lifetime: it is gone from disk at open, with no write needed.
    await Client.upsert('late', { client_id: 'late' } as AdapterPayload, undefined as unknown as number);
    expect(await readdir(join(dir, 'oidc', 'Client'))).toHaveLength(2);
    const restarted = await openOidcState(dir, { unusedClientSeconds, now: () => now + 365 * 86_400_000 });
    expect(await new restarted.Adapter('Client').find('used')).toEqual({ client_id: 'used' });
    expect(await new restarted.Adapter('Client').find('unused')).toBeUndefined();
    expect(await new restarted.Adapter('Client').find('late')).toBeUndefined();
    expect(await readdir(join(dir, 'oidc', 'Client'))).toHaveLength(1);
  });

  it('rule:oauth-state-per-record — a caller-chosen id of any length is a record of its own; a data directory of the former layout is moved over; a torn interaction is dropped', async () => {
    const former = await mkdtemp(join(tmpdir(), 'site-mcp-oauth-former-'));
    try {
      await mkdir(join(former, 'oidc'));
      await writeFile(join(former, 'oidc', 'Grant.json'), JSON.stringify({ g1: { payload: { accountId: 'a', clientId: 'c' }, expiresAt: Date.now() + 60_000 }, gone: { payload: {}, expiresAt: 1 } }));
      const state = await openOidcState(former, { unusedClientSeconds: 60 });
      const Grant = new state.Adapter('Grant');
      expect(await Grant.find('g1')).toEqual({ accountId: 'a', clientId: 'c' });
      expect(await Grant.find('gone')).toBeUndefined();
      expect(await readdir(join(former, 'oidc'))).toEqual(['Grant']); // Grant.json moved over, then removed
      // An interaction is not fsync'd (a sign-in in progress): one a crash left torn is dropped at open, not fatal.
      await mkdir(join(former, 'oidc', 'Interaction'));
      await writeFile(join(former, 'oidc', 'Interaction', 'torn.json'), '{"id":"i1","payl');
      expect(await new state.Adapter('Interaction').find('i1')).toBeUndefined();
      expect(await readdir(join(former, 'oidc', 'Interaction'))).toEqual([]);
      const long = `${'../'.repeat(100)}${'x'.repeat(1000)}`;
      expect(await Grant.find(long)).toBeUndefined();
      await Grant.upsert(long, { accountId: 'b' } as AdapterPayload, 60);
      expect(await Grant.find(long)).toEqual({ accountId: 'b' });
      await Grant.destroy(long);
      expect(await Grant.find(long)).toBeUndefined();
    } finally {
      await rm(former, { recursive: true, force: true });
    }
  });
});
