// The kit's OAuth 2.1 client (§5.1), for checking any target black-box: the MCP SDK's own client-side flow,
// unchanged (auth(): the 401's resource_metadata, RFC 9728 metadata, authorization-server metadata, dynamic
// registration, PKCE, code exchange), with the owner's sign-in and consent done by the target through the
// fixtures protocol's `oauth-consent` (conformance/docs/fixtures-protocol.md), since the source shows no consent page.
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FixturesClient } from './fixtures-client.js';
import { postFromAddress } from './local-address.js';
import { KIT_OAUTH_REDIRECT_URI } from './test-website.js';

/** Never contacted: the fixture answers where the user agent would go instead of following it. */
const REDIRECT_URI = KIT_OAUTH_REDIRECT_URI;

/**
 * An OAuthClientProvider as a chat client writes one: in-memory registration, tokens and PKCE verifier; "opening
 * the browser" records the authorization URL. Also used by the reference's own end-to-end OAuth tests.
 */
export class InMemoryOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** Every authorization URL the SDK asked to open, in order. */
  readonly opened: URL[] = [];
  /**
   * `clientMetadataUrl`: the https address of this client's metadata document (rule
   * oauth-client-id-metadata-documents); the SDK uses it as the client id, without registering, where the
   * authorization server says it takes such documents.
   */
  constructor(readonly name: string, readonly redirectUrl: string = REDIRECT_URI, readonly clientMetadataUrl?: string) {}
  get authorizationUrl(): URL | undefined {
    return this.opened.at(-1);
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
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
}

export interface OAuthGrant {
  accessToken: string;
  clientId: string;
}

/**
 * The SDK's fetch with every POST (registration, token exchange) sent from the local address `from`: how many clients
 * one address may register is a target's decision (oauth-registration-throttled-per-address), so a kit run never
 * spends the allowance of the kit's own address on scenarios that are not about it.
 */
export function fetchFrom(from: string): typeof fetch {
  return async (input, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return fetch(input, init);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    return postFromAddress(String(input instanceof Request ? input.url : input), from, headers, String(init?.body ?? ''));
  };
}

/**
 * Registers a new OAuth client named `clientName` at `url` (its POSTs from the local address `from` when given), has
 * `userId` approve it for `websiteId` (granting `scopes` of those the client asked for, or all of them), and answers
 * the access token.
 */
export async function authorizeOAuthClient(url: string, fixtures: FixturesClient, request: { clientName: string; userId: string; websiteId: string; scopes?: string[]; from?: string; clientMetadataUrl?: string }): Promise<OAuthGrant> {
  const provider = new InMemoryOAuthClient(request.clientName, REDIRECT_URI, request.clientMetadataUrl);
  const serverUrl = `${url}/api/mcp`;
  const fetchFn = request.from ? fetchFrom(request.from) : undefined;
  const first = await auth(provider, { serverUrl, ...(fetchFn ? { fetchFn } : {}) });
  if (first !== 'REDIRECT' || !provider.authorizationUrl) throw new Error(`the OAuth flow of ${serverUrl} did not ask for an authorization (auth() answered ${first})`);
  const { redirectedTo } = await fixtures.request<{ redirectedTo: string }>('POST', '/oauth-consent', {
    authorizationUrl: provider.authorizationUrl.href,
    userId: request.userId,
    websiteId: request.websiteId,
    ...(request.scopes ? { scopes: request.scopes } : {}),
  });
  const back = new URL(redirectedTo);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the owner's approval ended at ${back.origin}${back.pathname} without a code (error: ${back.searchParams.get('error') ?? 'none'})`);
  if (await auth(provider, { serverUrl, authorizationCode: code, ...(fetchFn ? { fetchFn } : {}) }) !== 'AUTHORIZED' || !provider.saved) throw new Error('the code exchange gave no token');
  return { accessToken: provider.saved.access_token, clientId: String(provider.info?.client_id) };
}
