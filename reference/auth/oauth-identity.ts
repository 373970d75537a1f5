// The OAuth side of one server (§5.1): its identity provider and the MCP edge's verifier of the provider's tokens,
// made together on first use (the provider reads or makes its keys and opens its state on disk) and kept.
import type { Limits } from '../../spec/index.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { Network } from '../infra/safe-fetch.js';
import { OAuthEdge } from './oauth-edge.js';
import { createIdentityProvider, type IdentityProvider } from './oauth-provider.js';
import type { AdmissionPorts } from './oauth-admission.js';

export interface OAuthIdentity {
  idp: IdentityProvider;
  edge: OAuthEdge;
}

/** The server's OAuth identity, made by the first call and the same for every later one. */
export type OAuthPort = () => Promise<OAuthIdentity>;

/** `baseUrl` is the server's public base URL (the issuer is `<baseUrl>/oidc`). */
export function oauthOnFirstUse(baseUrl: string, dataDir: string, admission: { limiter: SlidingWindowLimiter; limits: Limits; net: Network; rows?: AdmissionPorts['rows'] }): OAuthPort {
  let made: Promise<OAuthIdentity> | undefined;
  return () => (made ??= createIdentityProvider(baseUrl, dataDir, admission).then((idp) => ({ idp, edge: new OAuthEdge(idp) })));
}
