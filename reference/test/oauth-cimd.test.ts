// OAuth for 2026-era clients: the SDK v2 client (@modelcontextprotocol/client), pinned to protocol
// revision 2026-07-28, completes OAuth with a Client ID Metadata Document instead of registering (rule
// oauth-client-id-metadata-documents): its client id is the https URL of its metadata, which the reference fetches
// through its SSRF-hardened fetcher. The document is served on loopback over https with the kit's test certificate,
// reachable only because test mode's fetch-allowlist (with its fetch-allowlist-tls part) names that one origin. The
// owner signs in and consents in Chromium on the reference's own pages, as in oauth-sdk-client.test.ts; then the
// client calls list_sites. Also here: the 401 challenge's scope (rule oauth-challenge-scope-every-scope), the RFC
// 8414 path-inserted metadata address (rule oauth-authorization-server-metadata-path-inserted), and a metadata
// document the reference must refuse (a plain-http redirect URI off loopback; an address not on the allow-list).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { launchChromium } from './chromium.js';
import { callbackServer, consentInBrowser, type CallbackServer } from './oauth-browser.js';
import { startServer, type RunningServer } from '../app.js';
import { testMode } from '../testing/index.js';
import { FIXTURES_SECRET } from './harness.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';
import { TEST_WEBSITE_CERTIFICATE, TEST_WEBSITE_KEY } from '../../conformance/lib/test-website.js';
import { ALL_SCOPES } from '../domain/scopes.js';

let dataDir: string;
let server: RunningServer;
let fx: FixturesClient;
let world: WorldWithPasswords;
let callback: CallbackServer;
let browser: Browser;
/** The client's own website, serving its metadata documents over https on loopback. */
let documents: HttpsServer;
let origin: string;
/** path → document; and each path the reference fetched, in order. */
const served = new Map<string, unknown>();
/** path → the content type it is served with, when not application/json ('' for none). */
const servedAs = new Map<string, string>();
const fetched: string[] = [];
const slow = { now: 0, most: 0 };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-oauth-cimd-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir, allowedHosts: [] }, testMode(FIXTURES_SECRET));
  fx = new FixturesClient(server.url, FIXTURES_SECRET);
  world = await fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  callback = await callbackServer();
  documents = createHttpsServer({ cert: TEST_WEBSITE_CERTIFICATE, key: TEST_WEBSITE_KEY }, async (req, res) => {
    fetched.push(req.url ?? '');
    // A slow client website: how many of its documents the reference fetches at once.
    if (req.url?.startsWith('/oauth/slow-')) {
      slow.now++;
      slow.most = Math.max(slow.most, slow.now);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      slow.now--;
    }
    const doc = served.get(req.url ?? '');
    const type = servedAs.get(req.url ?? '') ?? 'application/json';
    res.writeHead(doc ? 200 : 404, type ? { 'content-type': type } : {});
    res.end(doc ? JSON.stringify(doc) : '{}');
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  // The one origin the reference's fetcher may reach, with the one certificate it trusts there (test mode only).
  await fx.fetchAllowlist([origin], [TEST_WEBSITE_CERTIFICATE]);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (documents ? documents.close(() => resolve()) : resolve()));
  documents?.closeAllConnections();
  await callback?.close();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An OAuth client as a 2026-era chat client writes one: a metadata URL, no registration; tokens in memory. */
class MetadataDocumentClient implements OAuthClientProvider {
  info?: { client_id: string };
  saved?: { access_token: string; token_type: string; refresh_token?: string };
  verifier = '';
  discovery?: unknown;
  readonly opened: URL[] = [];
  constructor(readonly clientMetadataUrl: string, readonly redirectUrl: string) {}
  get clientMetadata() {
    return { client_name: 'Rye Chat', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: { client_id: string }) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: { access_token: string; token_type: string; refresh_token?: string }) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.opened.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Which authorization server the flow began with, so the SDK can check the callback against it (SEP-2352).
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}

/** Every request the client's transport sends, as "METHOD URL → status", to show which addresses it used. */
function loggingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const answer = await fetch(input, init);
    log.push(`${(init?.method ?? 'GET').toUpperCase()} ${String(input instanceof Request ? input.url : input).replace(server.url, '')} → ${answer.status}`);
    return answer;
  };
}

describe('the 401 challenge and the authorization-server metadata', () => {
  it('rule:oauth-challenge-scope-every-scope — the 401 names the protected-resource metadata and every scope, as scopes_supported does', async () => {
    const answer = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp", scope="[^"]+"$/);
    const scope = /scope="([^"]+)"/.exec(challenge)![1]!.split(' ');
    const prm = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { scopes_supported: string[] };
    expect(scope).toEqual(prm.scopes_supported);
    expect([...scope].sort()).toEqual([...ALL_SCOPES].sort());
  });

  it('rule:oauth-authorization-server-metadata-path-inserted rule:oauth-client-id-metadata-documents — the RFC 8414 address of the issuer <base>/oidc answers its metadata, which advertises metadata documents and keeps registration', async () => {
    const inserted = await fetch(`${server.url}/.well-known/oauth-authorization-server/oidc`);
    expect(inserted.status).toBe(200);
    const metadata = (await inserted.json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(`${server.url}/oidc`);
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${server.url}/oidc/reg`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    // The same document as at the provider's own address.
    expect(metadata).toEqual(await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json());
    // Only that one issuer path: another is not the reference's issuer.
    expect((await fetch(`${server.url}/.well-known/oauth-authorization-server/other`)).status).toBe(404);
  });
});

describe('rule:oauth-client-id-metadata-documents — the SDK v2 client, pinned to 2026-07-28, by metadata document', () => {
  it('completes OAuth without registering: the reference fetches the document, the owner consents in Chromium, the client calls list_sites and carries out a reviewed plan', async () => {
    const url = `${origin}/oauth/rye-chat.json`;
    const chat = new MetadataDocumentClient(url, callback.url);
    served.set('/oauth/rye-chat.json', { client_id: url, ...chat.clientMetadata });
    const log: string[] = [];
    const transport = () => new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { authProvider: chat, fetch: loggingFetch(log) });
    const pinned = () => new Client({ name: 'rye-chat', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

    await expect(pinned().connect(transport())).rejects.toBeInstanceOf(UnauthorizedError);
    expect(chat.opened).toHaveLength(1);
    const authorization = chat.opened[0]!;
    // The client id is the document's URL, and no registration was posted.
    expect(authorization.searchParams.get('client_id')).toBe(url);
    expect(log.some((line) => line.startsWith('POST /oidc/reg'))).toBe(false);
    // The first authorization-server metadata address it tried is the RFC 8414 one, and it answered.
    expect(log.find((line) => line.includes('/.well-known/oauth-authorization-server'))).toBe('GET /.well-known/oauth-authorization-server/oidc → 200');

    const page = await browser.newPage();
    const consent = await consentInBrowser(page, authorization, world.users.olive!, ['crm:read'], 'oauth-consent-cimd');
    // The consent page names the client by its document's name and shows where it sends the browser.
    expect(consent).toContain('Rye Chat');
    const redirected = await callback.next().catch(async (error: Error) => {
      throw new Error(`${error.message}; the browser is at ${page.url()}: ${(await page.textContent('body'))?.slice(0, 300)}`);
    });
    await page.close();
    expect(redirected.searchParams.get('error'), redirected.href).toBeNull();
    // The reference fetched the document from the client's own address (through its fetcher: only that origin is allowed).
    expect(fetched).toContain('/oauth/rye-chat.json');

    const authorized = transport();
    await authorized.finishAuth(redirected.searchParams);
    expect(chat.saved?.access_token).toBeTruthy();
    const client = pinned();
    await client.connect(authorized);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const sites = (await client.callTool({ name: 'list_sites', arguments: {} })).structuredContent as { ok: boolean; data: { sites: { websiteId: string }[] } };
      expect(sites.ok, JSON.stringify(sites)).toBe(true);
      expect(sites.data.sites.map((s) => s.websiteId)).toEqual([world.sites.main!.websiteId]);
      // The unticked scope is not granted: the owner's choice at consent is the ceiling.
      const leads = (await client.callTool({ name: 'list_leads', arguments: { websiteId: world.sites.main!.websiteId } })).structuredContent as { ok: boolean; error?: { code: string } };
      expect(leads.error?.code, JSON.stringify(leads)).toBe('scope_denied');
      // A reviewed plan through the OAuth connection: prepare, the owner approves in the app, confirm.
      const prepared = (await client.callTool({ name: 'prepare_publish', arguments: { websiteId: world.sites.main!.websiteId } })).structuredContent as { ok: boolean; data: { planId: string } };
      expect(prepared.ok, JSON.stringify(prepared)).toBe(true);
      expect((await fx.decide(prepared.data.planId, world.users.olive!.userId, 'approve')).status).toBe('approved');
      const confirmed = (await client.callTool({ name: 'confirm_pending_action', arguments: { planId: prepared.data.planId } })).structuredContent as { ok: boolean };
      expect(confirmed.ok, JSON.stringify(confirmed)).toBe(true);
    } finally {
      await client.close();
    }
  }, 90_000);

  /** The authorization endpoint's answer to a request naming `clientId` (no redirect followed). */
  const authorize = (clientId: string) =>
    fetch(
      `${server.url}/oidc/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: callback.url, scope: 'site:read', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM', code_challenge_method: 'S256', resource: `${server.url}/api/mcp` })}`,
      { redirect: 'manual' },
    );

  it('refuses a document whose redirect URI is plain http off loopback (rule oauth-redirect-https-or-loopback), with its own page', async () => {
    const url = `${origin}/oauth/cleartext.json`;
    served.set('/oauth/cleartext.json', { client_id: url, client_name: 'Cleartext', redirect_uris: [callback.url, 'http://chat.example/callback'], token_endpoint_auth_method: 'none' });
    const answer = await authorize(url);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toMatch(/refused: client is not allowed/);
  });

  it('refuses a document over the registration metadata cap (rule oauth-registration-metadata-capped), read no further than the cap', async () => {
    const url = `${origin}/oauth/oversized.json`;
    const cap = server.parts.limits.oauthRegistration.maxMetadataBytes;
    served.set('/oauth/oversized.json', { client_id: url, client_name: 'x'.repeat(cap), redirect_uris: [callback.url], token_endpoint_auth_method: 'none' });
    const answer = await authorize(url);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toMatch(/refused: client_id metadata document fetch failed/);
    expect(fetched).toContain('/oauth/oversized.json');
  });

  it('rule:oauth-client-id-metadata-documents — refuses a document not served as JSON: text/html, text/plain, or no content type', async () => {
    for (const [name, type] of [['as-html', 'text/html'], ['as-text', 'text/plain; charset=utf-8'], ['untyped', '']] as const) {
      const url = `${origin}/oauth/${name}.json`;
      served.set(`/oauth/${name}.json`, { client_id: url, client_name: 'Rye Chat', redirect_uris: [callback.url], token_endpoint_auth_method: 'none' });
      servedAs.set(`/oauth/${name}.json`, type);
      const answer = await authorize(url);
      expect(answer.status, name).toBe(400);
      expect(await answer.text(), name).toMatch(/refused: client_id metadata document fetch failed/);
      expect(fetched).toContain(`/oauth/${name}.json`);
    }
    // The same document as JSON is taken (application/json with a charset too).
    const url = `${origin}/oauth/as-json.json`;
    served.set('/oauth/as-json.json', { client_id: url, client_name: 'Rye Chat', redirect_uris: [callback.url], token_endpoint_auth_method: 'none' });
    servedAs.set('/oauth/as-json.json', 'application/json; charset=utf-8');
    expect((await authorize(url)).status).toBe(303);
  });

  it('rule:oauth-client-documents-fetch-bounded — a document that could not be had is fetched once, not again for each request', async () => {
    const url = `${origin}/oauth/missing-${Date.now()}.json`;
    for (let i = 0; i < 3; i++) expect((await authorize(url)).status).toBe(400);
    expect(fetched.filter((p) => p === new URL(url).pathname)).toHaveLength(1);
  });

  it('rule:oauth-client-documents-fetch-bounded — at most perHostConcurrent documents are fetched from one host at once', async () => {
    const { perHostConcurrent } = server.parts.limits.oauthClientDocuments;
    slow.most = 0;
    const answers = await Promise.all(Array.from({ length: perHostConcurrent * 3 }, (_, i) => authorize(`${origin}/oauth/slow-${i}.json`)));
    for (const answer of answers) expect(answer.status).toBe(400);
    expect(slow.most).toBeGreaterThan(0);
    expect(slow.most).toBeLessThanOrEqual(perHostConcurrent);
  });

  it('rule:oauth-client-documents-fetch-bounded — the token and revocation endpoints, which fetch documents too, are counted per address in every spelling', async () => {
    const { limit } = server.parts.limits.oauthClientDocuments.perAddress;
    const post = (path: string) => postFromAddress(`${server.url}${path}`, '127.72.0.1', { 'content-type': 'application/x-www-form-urlencoded' }, `grant_type=authorization_code&code=x&client_id=${encodeURIComponent(`${origin}/oauth/none.json`)}`);
    const paths = ['/oidc/token', '/oidc/token/revocation', '/oidc/TOKEN/', '/oidc/Token/Revocation'];
    for (let i = 0; i < limit; i++) expect((await post(paths[i % paths.length]!)).status, paths[i % paths.length]).not.toBe(429);
    for (const path of paths) {
      const refused = await post(path);
      expect(refused.status, path).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe('rate_limited');
    }
  }, 60_000);

  it('fetches no document from an address its fetcher refuses: the same loopback server by a name not on the allow-list', async () => {
    const other = `https://localhost:${new URL(origin).port}/oauth/rye-chat.json`;
    const before = fetched.length;
    const answer = await authorize(other);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toMatch(/refused: client_id metadata document fetch failed/);
    expect(fetched.length).toBe(before);
  });
});
