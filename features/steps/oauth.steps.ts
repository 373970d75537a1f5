// OAuth 2.1 (§5.1) against any target: a client registered and approved through the MCP SDK's own flow, with
// the owner's consent done by the target (fixtures protocol `oauth-consent`). The client then acts like any
// named connection in the other steps ("chat" calls "list_sites").
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpConnection, readAnswer, type HttpAnswer } from '../../conformance/lib/mcp-client.js';
import { authorizeOAuthClient } from '../../conformance/lib/oauth-client.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';
import { recordedFetch } from '../../conformance/lib/transcript.js';
import type { SiteWorld } from '../support/world.js';
import { NotDeclared } from '../../conformance/lib/declaration.js';
import { fixturesSupport } from '../../conformance/lib/fixtures-client.js';
import { loadJson } from '../../spec/index.js';
import { kitChoosesAddress, randomLoopback } from '../support/client-address.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

Given('{string} approves a new OAuth client {string} for {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  // The source shows no consent page: without the optional fixtures part `oauth-consent` the scenario is not checked.
  if (!fixturesSupport('oauth-consent')) throw new NotDeclared("the owner's OAuth consent: the target's fixtures do not support oauth-consent");
  // From an address of the kit's own where it can choose one: registrations per address are a target's decision
  // (oauth-registration-throttled-per-address), and this scenario must not spend the kit's allowance.
  const from = (await kitChoosesAddress(this)) ? randomLoopback() : undefined;
  const grant = await authorizeOAuthClient(this.url, this.fixtures, { clientName: `conformance ${name}`, userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes), ...(from ? { from } : {}) });
  // The connection the server bound the client to is the server's business; the kit never names it.
  this.connections.set(name, { connectionId: '', token: grant.accessToken, userKey: user, mcp: new McpConnection(this.url, grant.accessToken) });
});

// rule oauth-client-id-metadata-documents (our decision): the client's id is the https address of its metadata
// document on the kit website, which the target fetches (the kit website's https origin is on its fetch allow-list,
// fixtures part fetch-allowlist-tls); the SDK registers nothing where the target says it takes such documents.
Given('{string} approves an OAuth client {string} named by its metadata document on the kit website for {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  if (!fixturesSupport('oauth-consent')) throw new NotDeclared("the owner's OAuth consent: the target's fixtures do not support oauth-consent");
  const https = process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;
  if (!https) throw new NotDeclared("the kit website over https: the target's fixtures do not support fetch-allowlist-tls");
  const path = `/oauth/client/${name}-${this.randomWord()}.json`;
  const clientMetadataUrl = `${https}${path}`;
  const from = (await kitChoosesAddress(this)) ? randomLoopback() : undefined;
  const grant = await authorizeOAuthClient(this.url, this.fixtures, { clientName: `conformance ${name}`, userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes), clientMetadataUrl, ...(from ? { from } : {}) });
  assert.equal(grant.clientId, clientMetadataUrl, `the client was given the id ${grant.clientId}: the target had it register instead of taking its metadata document (client_id_metadata_document_supported)`);
  const requested = (await (await fetch(`${this.resolve('{{website}}')}/__kit/requested`)).json()) as string[];
  assert.ok(requested.includes(path), `the target approved the client without fetching its metadata document ${path}`);
  this.connections.set(name, { connectionId: '', token: grant.accessToken, userKey: user, mcp: new McpConnection(this.url, grant.accessToken) });
});

// rule oauth-client-documents-no-redirect (our decision): the document's address redirects to a document naming that
// address as its client id; only a server that follows the redirect approves the client.
Then('an OAuth client named by a metadata document address of the kit website that redirects is not approved for {string}', async function (this: SiteWorld, site: string) {
  if (!fixturesSupport('oauth-consent')) throw new NotDeclared("the owner's OAuth consent: the target's fixtures do not support oauth-consent");
  const https = process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;
  if (!https) throw new NotDeclared("the kit website over https: the target's fixtures do not support fetch-allowlist-tls");
  const path = `/oauth/moved/redirected-${this.randomWord()}.json`;
  const from = (await kitChoosesAddress(this)) ? randomLoopback() : undefined;
  const approved = await authorizeOAuthClient(this.url, this.fixtures, { clientName: 'conformance redirected', userId: this.user('olive').userId, websiteId: this.site(site).websiteId, scopes: ['site:read'], clientMetadataUrl: `${https}${path}`, ...(from ? { from } : {}) }).then(
    (grant) => grant,
    () => undefined,
  );
  assert.equal(approved, undefined, `the target approved a client whose metadata document ${path} answered with a redirect (it followed it)`);
  // It asked the address, so the refusal is the redirect's, not a fetch that never happened.
  const requested = (await (await fetch(`${this.resolve('{{website}}')}/__kit/requested`, { signal: AbortSignal.timeout(10_000) })).json()) as string[];
  assert.ok(requested.includes(path), `the target never fetched the metadata document ${path}`);
});

// rule oauth-no-caller-profile-id: the ways a caller might name another connection or profile, on every request.
When('the OAuth client {string} names the connection {string} in every request', async function (this: SiteWorld, name: string, other: string) {
  const client = this.connection(name);
  const id = this.connection(other).connectionId;
  await client.mcp.close();
  this.connections.set(name, { ...client, mcp: new McpConnection(this.url, client.token, { 'X-Connection-Id': id, 'X-Profile-Id': id, 'Mcp-Connection-Id': id, 'X-Site-Mcp-Connection': id }) });
});

// ── Dynamic client registration, open to anyone (rules oauth-registration-throttled-per-address,
// oauth-registration-metadata-capped): found as a client finds it, through the protected-resource metadata ────────

const REGISTRATION = loadJson<{ oauthRegistration: { perAddress: { limit: number; windowSeconds: number }; maxMetadataBytes: number } }>('limits.json').oauthRegistration;

/** The registration endpoint the target's authorization server advertises (RFC 9728, then RFC 8414 or OIDC discovery). */
async function registrationEndpoint(world: SiteWorld): Promise<string> {
  const resource = await discoverOAuthProtectedResourceMetadata(`${world.url}/api/mcp`);
  const issuer = resource.authorization_servers?.[0];
  assert.ok(issuer, 'the protected-resource metadata names no authorization server');
  const endpoint = (await discoverAuthorizationServerMetadata(issuer))?.registration_endpoint;
  assert.ok(endpoint, `the authorization server ${issuer} advertises no registration_endpoint`);
  return endpoint;
}

/** Client metadata as an MCP client registers it, `padding` appended to its name. */
const clientMetadata = (name: string, padding = '') =>
  JSON.stringify({ client_name: `conformance ${name}${padding}`, redirect_uris: ['http://127.0.0.1:9/site-mcp-conformance/callback'], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' });

async function registerFrom(world: SiteWorld, from: string | undefined, body: string): Promise<HttpAnswer> {
  world.lastHttp = await readAnswer(await postFromAddress(world.remembered.get('registration-endpoint') as string, from, { 'content-type': 'application/json' }, body));
  return world.lastHttp;
}

When('an OAuth client registers from one address until its allowance is spent', async function (this: SiteWorld) {
  // Only where the kit can choose its client address; from the kit's one address elsewhere the check would lock
  // every other OAuth scenario out for the window.
  if (!(await kitChoosesAddress(this))) return this.notChecked('client registrations per address (the kit cannot choose its client address: the target is not an IPv4 loopback address, or this machine lets it use 127.0.0.1 only)');
  this.remembered.set('registration-endpoint', await registrationEndpoint(this));
  const from = randomLoopback();
  this.remembered.set('throttled-address', from);
  for (let i = 0; i < REGISTRATION.perAddress.limit; i++) {
    const answer = await registerFrom(this, from, clientMetadata(`flood ${i}`));
    assert.equal(answer.status, 201, `registration ${i + 1} of ${REGISTRATION.perAddress.limit} from ${from} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
});

Then('the next registration from that address answers 429 with Retry-After and an OAuth JSON error, whatever its body', async function (this: SiteWorld) {
  const from = this.remembered.get('throttled-address') as string | undefined;
  if (!from) return;
  for (const body of [clientMetadata('one too many'), '{ not json']) {
    const answer = await registerFrom(this, from, body);
    assert.equal(answer.status, 429, `registration past the allowance (body ${body.slice(0, 60)}) answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
    const retryAfter = answer.headers.get('retry-after');
    assert.ok(Number(retryAfter) > 0 && Number(retryAfter) <= REGISTRATION.perAddress.windowSeconds, `Retry-After: ${retryAfter}`);
    const json = answer.json as { error?: unknown; client_id?: unknown } | undefined;
    assert.equal(typeof json?.error, 'string', `no OAuth JSON error: ${answer.text.slice(0, 300)}`);
    assert.equal(json?.client_id, undefined, 'a refused registration answered a client_id');
  }
});

Then('a registration from another address is answered', async function (this: SiteWorld) {
  const from = this.remembered.get('throttled-address') as string | undefined;
  if (!from) return;
  let other = randomLoopback();
  while (other === from) other = randomLoopback();
  const answer = await registerFrom(this, other, clientMetadata('elsewhere'));
  assert.equal(answer.status, 201, `a registration from ${other} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
});

When('an OAuth client registers with metadata one byte over the cap', async function (this: SiteWorld) {
  this.remembered.set('registration-endpoint', await registrationEndpoint(this));
  const from = (await kitChoosesAddress(this)) ? randomLoopback() : undefined;
  const fits = REGISTRATION.maxMetadataBytes - Buffer.byteLength(clientMetadata('capped'));
  const body = clientMetadata('capped', 'x'.repeat(fits + 1));
  assert.equal(Buffer.byteLength(body), REGISTRATION.maxMetadataBytes + 1);
  await registerFrom(this, from, body);
});

// Sent as a stream, so the request carries Transfer-Encoding: chunked and no Content-Length: a server that checks the
// announced size alone reads it whole (rule oauth-registration-size-announced).
When('an OAuth client registers with metadata one byte over the cap, chunked without a Content-Length', async function (this: SiteWorld) {
  const endpoint = await registrationEndpoint(this);
  const fits = REGISTRATION.maxMetadataBytes - Buffer.byteLength(clientMetadata('chunked'));
  const bytes = new TextEncoder().encode(clientMetadata('chunked', 'x'.repeat(fits + 1)));
  assert.equal(bytes.length, REGISTRATION.maxMetadataBytes + 1);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.subarray(i, i + 4096));
      controller.close();
    },
  });
  this.lastHttp = await readAnswer(await recordedFetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit));
});

Then('the registration is refused with a 4xx and an OAuth JSON error, and names no client', function (this: SiteWorld) {
  const answer = this.lastHttp!;
  assert.ok(answer.status >= 400 && answer.status < 500 && answer.status !== 429, `a registration over the metadata cap answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  const json = answer.json as { error?: unknown; client_id?: unknown } | undefined;
  assert.equal(typeof json?.error, 'string', `no OAuth JSON error: ${answer.text.slice(0, 300)}`);
  assert.equal(json?.client_id, undefined, 'a refused registration answered a client_id');
});

// ── Errors of a client that never redeemed a code (rule oauth-no-error-redirect-unverified-client, our decision) ──
// Registration is open to anyone, so a server that sends a browser to a new client's redirect URI with an error is an
// open redirect: a link to its authorization endpoint with a deliberate mistake leaves the site for any address.

When('an OAuth client registers with the redirect URI {string}', async function (this: SiteWorld, redirectUri: string) {
  this.remembered.set('registration-endpoint', await registrationEndpoint(this));
  const from = (await kitChoosesAddress(this)) ? randomLoopback() : undefined;
  const body = JSON.stringify({ client_name: 'conformance redirect', redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' });
  const answer = await registerFrom(this, from, body);
  assert.equal(answer.status, 201, `registering a client with the redirect URI ${redirectUri} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  const clientId = (answer.json as { client_id?: unknown }).client_id;
  assert.equal(typeof clientId, 'string', 'the registration answered no client_id');
  this.remembered.set('registered-client', { clientId, redirectUri });
});

Then('authorization requests of that client that fail do not send the browser to its redirect URI', async function (this: SiteWorld) {
  const { clientId, redirectUri } = this.remembered.get('registered-client') as { clientId: string; redirectUri: string };
  const resource = await discoverOAuthProtectedResourceMetadata(`${this.url}/api/mcp`);
  const endpoint = (await discoverAuthorizationServerMetadata(resource.authorization_servers![0]!))?.authorization_endpoint;
  assert.ok(endpoint, 'the authorization server advertises no authorization_endpoint');
  const target = new URL(redirectUri);
  // A request without PKCE (OAuth 2.1 requires it), one with a response type no server offers, each also with the
  // error delivered by a posted form.
  const failing: Record<string, string>[] = [{ response_type: 'code' }, { response_type: 'code conformance-unknown' }, { response_type: 'code', response_mode: 'form_post' }];
  for (const params of failing) {
    const url = new URL(endpoint);
    for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: redirectUri, scope: 'site:read', state: 'conformance', ...params })) url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    const html = await res.text();
    const location = res.headers.get('location');
    const to = location ? new URL(location, url) : undefined;
    assert.ok(!to || to.host !== target.host, `${url.search} answered HTTP ${res.status} with Location ${location}: the browser leaves for the new client's redirect URI`);
    assert.ok(!html.includes(target.host), `${url.search} answered HTTP ${res.status} with a page that names ${target.host} (a form posting the error there): ${html.slice(0, 300)}`);
  }
});

// ── What a 2026-era client reads first: the challenge's scope, the RFC 8414 address ─────────────────────────────

/** The target's protected-resource metadata for its MCP endpoint (RFC 9728). */
async function protectedResource(world: SiteWorld): Promise<{ authorization_servers?: string[]; scopes_supported?: string[] }> {
  const answer = await fetch(`${world.url}/.well-known/oauth-protected-resource/api/mcp`, { signal: AbortSignal.timeout(15_000) });
  assert.equal(answer.status, 200, `the protected-resource metadata answered HTTP ${answer.status}`);
  return (await answer.json()) as { authorization_servers?: string[]; scopes_supported?: string[] };
}

// rule oauth-challenge-scope-every-scope (our decision): the scope parameter (RFC 6750 §3) equals scopes_supported.
Then("the challenge's scope parameter names every scope the protected-resource metadata lists", async function (this: SiteWorld) {
  const challenge = this.lastHttp?.headers.get('www-authenticate') ?? '';
  const scope = /(?:^|[\s,])scope="([^"]*)"/.exec(challenge)?.[1];
  assert.ok(scope !== undefined, `the challenge has no scope parameter: ${challenge}`);
  const listed = (await protectedResource(this)).scopes_supported ?? [];
  assert.ok(listed.length > 0, 'the protected-resource metadata lists no scopes_supported');
  assert.deepEqual(scope.split(' ').filter(Boolean).sort(), [...listed].sort(), `the challenge asks for ${scope}`);
});

// rule oauth-authorization-server-metadata-path-inserted (our decision): RFC 8414 §3.1, the issuer's path appended.
Then('the authorization server the protected-resource metadata names serves its metadata at the RFC 8414 address of its issuer', async function (this: SiteWorld) {
  const issuer = (await protectedResource(this)).authorization_servers?.[0];
  assert.ok(issuer, 'the protected-resource metadata names no authorization server');
  const { origin, pathname } = new URL(issuer);
  const address = `${origin}/.well-known/oauth-authorization-server${pathname === '/' ? '' : pathname.replace(/\/$/, '')}`;
  const answer = await fetch(address, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  assert.equal(answer.status, 200, `${address} answered HTTP ${answer.status}`);
  const metadata = (await answer.json()) as { issuer?: string };
  assert.equal(metadata.issuer, issuer, `${address} answered the metadata of another issuer`);
});
