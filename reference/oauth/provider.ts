// The identity provider of the reference server (§5.1): oidc-provider, mounted at /oidc as its own Koa app
// with its own issuer and signing keys, so the MCP edge treats it exactly like an external authorization
// server: it only verifies the access tokens it issues (JWTs for the /api/mcp resource) against its JWKS.
// Dynamic client registration is on; PKCE is required. Keys and grants live in memory: a restart signs
// OAuth clients out, which the Inspector and other clients handle by re-authorizing.
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { Provider, errors } from 'oidc-provider';
import { ALL_SCOPES } from '../domain/scopes.js';

export interface IdentityProvider {
  provider: Provider;
  issuer: string;
  resource: string;
  publicJwks: { keys: JWK[] };
}

export async function createIdentityProvider(baseUrl: string): Promise<IdentityProvider> {
  const issuer = `${baseUrl}/oidc`;
  const resource = `${baseUrl}/api/mcp`;
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [],
    // Our one signing key is ES256, so registered clients default to it.
    clientDefaults: { grant_types: ['authorization_code'], id_token_signed_response_alg: 'ES256', response_types: ['code'], token_endpoint_auth_method: 'none' },
    findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
    jwks: { keys: [privateJwk as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/oidc-interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
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
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 86_400 },
  });
  provider.proxy = false;
  return { provider, issuer, resource, publicJwks: { keys: [publicJwk as JWK] } };
}
