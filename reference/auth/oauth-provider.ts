// The identity provider of the reference server (§5.1): oidc-provider, mounted at /oidc as its own Koa app
// with its own issuer and signing keys, so the MCP edge treats it exactly like an external authorization
// server: it only verifies the access tokens it issues (JWTs for the /api/mcp resource) against its JWKS.
// Dynamic client registration is on and accepts the scopes MCP clients send (those of the protected-resource
// metadata); PKCE is required. Clients registered for the refresh_token grant get refresh tokens (rotated, as
// public clients' must be). Clients, grants, sessions, refresh tokens and the signing and cookie keys persist
// in the data directory, one file per record (./oauth-adapter.ts), so a restart keeps authorized clients working
// (rules oauth-state-survives-restart, oauth-state-per-record) and a client never used expires
// (rule oauth-unused-clients-expire). Registration is open to anyone, so ./oauth-admission.ts admits it per client
// address and by size first (rules oauth-registration-throttled-per-address, oauth-registration-metadata-capped),
// and a redirect URI in plain http must point at loopback (rule oauth-redirect-https-or-loopback).
// Clients of the 2026 era need not register: a client id that is an https URL names its metadata document (OAuth
// Client ID Metadata Documents, oidc-provider's clientIdMetadataDocument feature; rule oauth-client-id-metadata-
// documents), which the provider fetches through the server's SSRF-hardened fetcher (../infra/safe-fetch.ts), like
// every other document it fetches, capped at the registration metadata cap.
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { Provider, errors } from 'oidc-provider';
import type { Limits } from '../../spec/index.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import { safeFetch } from '../infra/safe-fetch.js';
import { ALL_SCOPES } from '../domain/scopes.js';
import type { Network } from '../infra/safe-fetch.js';
import { openOidcState, persistentKeys } from './oauth-adapter.js';
import { oauthAdmission, REGISTRATION_PATH, type AdmissionPorts } from './oauth-admission.js';
import type { Context } from 'koa';
import { appSecurityHeaders, message } from '../web/render.js';

export interface IdentityProvider {
  provider: Provider;
  issuer: string;
  resource: string;
  publicJwks: { keys: JWK[] };
}

/** A fresh ES256 signing key and cookie key, made on a data directory's first start. */
async function newKeys() {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  return { signing: { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }, cookies: [randomBytes(32).toString('base64url')] };
}

/**
 * A registered redirect URI may use plain http only to a loopback host (rule oauth-redirect-https-or-loopback): a
 * code sent in the clear crosses no network. Other schemes are the provider's to judge (RFC 8252 §7.1 lets native
 * apps use a private-use scheme).
 */
export function redirectAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return true; // not a URL at all: oidc-provider's own check refuses it
  }
  if (url.protocol !== 'http:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** How long one fetch of the provider (a client's metadata document) may take: oidc-provider's own bound. */
const FETCH_TIMEOUT_MS = 2_500;

/**
 * oidc-provider's `fetch`, answered by the SSRF-hardened fetcher on the server's network (`net`, read on each call:
 * test mode's fetch-allowlist changes it in place): public addresses only, pinned connections, no redirect followed
 * (a metadata document must answer 200 itself), the body capped at `maxBytes`, and only a JSON answer read. Bounded
 * for callers with no account (rule oauth-client-documents-fetch-bounded): a document that could not be had is not
 * asked for again for `failureCacheSeconds` (the provider asks twice per request), and at most `perHostConcurrent`
 * fetches go to one host at once; past that one is refused at once, never queued.
 */
export function providerFetch(net: Network, maxBytes: number, bounds: Limits['oauthClientDocuments'], now: () => number = Date.now): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const failedUntil = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const unavailable = () => new Response(null, { status: 503 });
  const remember = (href: string) => {
    failedUntil.delete(href);
    failedUntil.set(href, now() + bounds.failureCacheSeconds * 1000);
    for (const oldest of failedUntil.keys()) {
      if (failedUntil.size <= bounds.failureCacheEntries) break;
      failedUntil.delete(oldest);
    }
  };
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') throw new TypeError('the identity provider only reads documents');
    const href = String(url);
    const until = failedUntil.get(href);
    if (until !== undefined && until > now()) return unavailable();
    failedUntil.delete(href);
    const host = new URL(href).host;
    const running = inFlight.get(host) ?? 0;
    if (running >= bounds.perHostConcurrent) return unavailable();
    inFlight.set(host, running + 1);
    try {
      // A document answers at its own address (rule oauth-client-documents-no-redirect): no redirect is followed.
      const answer = await safeFetch(href, { ...net, maxBytes, timeoutMs: FETCH_TIMEOUT_MS, maxRedirects: bounds.maxRedirects });
      // A document the provider reads is JSON and says so (the client ID metadata document draft requires
      // application/json; rule oauth-client-id-metadata-documents): a page, text or an unnamed body is no document.
      if (answer.status === 200 && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(answer.contentType ?? '')) {
        remember(href);
        return new Response(null, { status: 415 });
      }
      if (answer.status !== 200) remember(href);
      return new Response(answer.status === 204 || answer.status === 304 ? null : new Uint8Array(answer.body), {
        status: answer.status,
        headers: answer.contentType ? { 'content-type': answer.contentType } : {},
      });
    } catch (error) {
      remember(href);
      throw error;
    } finally {
      const left = (inFlight.get(host) ?? 1) - 1;
      if (left > 0) inFlight.set(host, left);
      else inFlight.delete(host);
    }
  };
}

export async function createIdentityProvider(baseUrl: string, dataDir: string, admission: { limiter: SlidingWindowLimiter; limits: Limits; net: Network; rows?: AdmissionPorts['rows'] }): Promise<IdentityProvider> {
  const issuer = `${baseUrl}/oidc`;
  const resource = `${baseUrl}/api/mcp`;
  const keys = await persistentKeys(dataDir, newKeys);
  const privateJwk = keys.signing as JWK;
  const { d: _private, ...publicJwk } = privateJwk;
  const registration = admission.limits.oauthRegistration;
  const state = await openOidcState(dataDir, { unusedClientSeconds: registration.unusedClientSeconds });
  const provider = new Provider(issuer, {
    adapter: state.Adapter,
    routes: { registration: REGISTRATION_PATH },
    // OAuth 2.1 has no implicit grant: the code flow alone, so no id_token response type is advertised or registered
    // (rule oauth-code-flow-only).
    responseTypes: ['code'],
    clients: [],
    // Our one signing key is ES256, so registered clients default to it.
    clientDefaults: { grant_types: ['authorization_code'], id_token_signed_response_alg: 'ES256', response_types: ['code'], token_endpoint_auth_method: 'none' },
    findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
    jwks: { keys: [privateJwk as never] },
    cookies: { keys: keys.cookies },
    // The resource's scopes too: MCP clients register with the protected-resource metadata's scopes_supported
    // (the MCP SDK's auth() does), and registration refuses a scope the server does not list.
    scopes: ['openid', 'offline_access', ...ALL_SCOPES],
    // A client registered for the refresh_token grant gets one without asking for offline_access (MCP clients
    // do not); oidc-provider rotates a public client's refresh token on every use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => true },
    // Only when a client registers (ctx is absent when a stored client is loaded, so earlier clients keep working).
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (ctx, key, value) => {
        if (ctx && key === 'redirect_uris' && Array.isArray(value)) for (const uri of value) if (typeof uri === 'string' && !redirectAllowed(uri)) throw new errors.InvalidRedirectUri('redirect_uris must use https, or http to a loopback host');
      },
    },
    interactions: { url: (_ctx, interaction) => `/oidc-interaction/${interaction.uid}` },
    fetch: providerFetch(admission.net, registration.maxMetadataBytes, admission.limits.oauthClientDocuments) as never,
    fetchResponseBodyLimits: { 'client_id metadata document': registration.maxMetadataBytes },
    // An error the browser is not sent back with (rule oauth-no-error-redirect-unverified-client, and every error
    // OAuth never redirects) is a page of ours, with the app's headers and a client error's status: never a 3xx
    // without a Location, which a redirect-looking answer to an error request would otherwise be.
    renderError: (ctx, out, error) => {
      const status = 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400;
      const why = typeof out.error_description === 'string' ? out.error_description : String(out.error ?? 'invalid request');
      message(ctx as unknown as Context, 'Connection not possible', [`The AI client's sign-in request was refused: ${why}.`, 'Start connecting again from your AI client.'], status);
    },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: without registration management nothing uses it, and oidc-provider would
      // keep one per registration with no lifetime, outliving the client (rule oauth-unused-clients-expire).
      registration: { enabled: true, issueRegistrationAccessToken: false },
      // A client id that is an https URL is its metadata document's address (rule oauth-client-id-metadata-
      // documents). Nothing is stored for such a client: the provider keeps the document 30 s (its shortest cache
      // time; the fetcher passes no Cache-Control on), then fetches it again. Its redirect URIs meet the rule
      // registration's do (oauth-redirect-https-or-loopback).
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowClient: (_ctx, client) => (client.redirectUris ?? []).every((uri) => redirectAllowed(uri)),
      },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope: ALL_SCOPES.join(' '), audience: resource, accessTokenTTL: 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 30 * 86_400, RefreshToken: 30 * 86_400 },
  });
  provider.proxy = false;
  // Its own pages (the error page, the logout pages) cannot be framed or sniffed, like the app's (rule
  // oauth-provider-pages-frame-protection); set first, so an answer that fails keeps them.
  provider.use(async (ctx, next) => {
    appSecurityHeaders(ctx);
    ctx.set('Content-Security-Policy', "frame-ancestors 'none'");
    await next();
  });
  // Before the provider's own routes, so a refused request is never read.
  provider.use(oauthAdmission({ limiter: admission.limiter, limits: admission.limits, liveInteractions: () => state.liveInteractions(), ...(admission.rows ? { rows: admission.rows } : {}) }));
  // An authorization error goes back to the client's redirect URI only for a client that has redeemed a code (rule
  // oauth-no-error-redirect-unverified-client). Registration is open to anyone, so otherwise a link to /oidc/auth
  // with a deliberate error would send a browser to any address its author registered: an open redirect (RFC 9700
  // §4.11.2 lets the server not redirect to a URI it does not trust). oidc-provider emits these events
  // synchronously before it decides, and renders its error page for an error that allows no redirect.
  const noRedirectForUnverified = (ctx: { oidc?: { client?: { clientId: string } } }, error: { allow_redirect?: boolean }) => {
    const client = ctx.oidc?.client;
    if (!client || !state.clientVerified(client.clientId)) error.allow_redirect = false;
  };
  provider.on('authorization.error', noRedirectForUnverified);
  (provider as unknown as { on(event: string, listener: typeof noRedirectForUnverified): void }).on('server_error', noRedirectForUnverified);
  return { provider, issuer, resource, publicJwks: { keys: [publicJwk] } };
}
