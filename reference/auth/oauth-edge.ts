// Verification at the MCP edge (§5.1): the OAuth access token's signature, issuer, audience and expiry are
// checked against the identity provider's keys; then a five-minute signed delegation binds that verified
// client (and subject) to exactly one connection — the one the owner created when approving that client. No
// caller-supplied profile id is read, and nothing is guessed from the owner's newest connection: without the
// recorded binding the token authenticates nothing.
import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import type { Store } from '../infra/store/store.js';
import type { AuthenticatedConnection } from './authenticate.js';
import type { IdentityProvider } from './oauth-provider.js';
import { entryOf } from '../domain/model.js';

const DELEGATION_SECONDS = 300;

export class OAuthEdge {
  #jwks: JWTVerifyGetKey;
  #idp: IdentityProvider;
  #secret = new Uint8Array(randomBytes(32));
  /** access-token hash → signed delegation (re-minted when it expires). */
  #delegations = new Map<string, string>();

  constructor(idp: IdentityProvider) {
    this.#idp = idp;
    this.#jwks = createLocalJWKSet(idp.publicJwks);
  }

  static bindingKey(clientId: string, subject: string): string {
    return `${clientId} ${subject}`;
  }

  async authenticate(store: Store, token: string): Promise<AuthenticatedConnection | null> {
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(token, this.#jwks, { issuer: this.#idp.issuer, audience: this.#idp.resource, algorithms: ['ES256'] }));
    } catch {
      return null;
    }
    const clientId = String(claims.client_id ?? '');
    const subject = String(claims.sub ?? '');
    if (!clientId || !subject) return null;
    const cacheKey = createHash('sha256').update(token).digest('hex');
    const delegation = await this.#currentDelegation(store, cacheKey, clientId, subject);
    if (!delegation) return null;
    const ws = await store.read(delegation.workspaceId);
    const connection = (ws ? entryOf(ws.connections, delegation.connectionId) : undefined);
    if (!connection || connection.revokedAt) return null;
    return { workspaceId: delegation.workspaceId, connectionId: delegation.connectionId, scopes: connection.scopes };
  }

  async #currentDelegation(store: Store, cacheKey: string, clientId: string, subject: string) {
    const cached = this.#delegations.get(cacheKey);
    if (cached) {
      try {
        const { payload } = await jwtVerify(cached, this.#secret, { audience: 'site-mcp-delegation' });
        if (payload.client_id === clientId && payload.sub === subject) return { workspaceId: String(payload.ws), connectionId: String(payload.conn) };
      } catch {
        // expired: look the binding up again below
      }
    }
    const binding = await store.lookupDirectory('oauth', OAuthEdge.bindingKey(clientId, subject));
    if (!binding) return null;
    const [workspaceId, connectionId] = binding.split(' ') as [string, string];
    const jwt = await new SignJWT({ client_id: clientId, ws: workspaceId, conn: connectionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setAudience('site-mcp-delegation')
      .setIssuedAt()
      .setExpirationTime(`${DELEGATION_SECONDS}s`)
      .sign(this.#secret);
    if (this.#delegations.size > 10_000) this.#delegations.clear();
    this.#delegations.set(cacheKey, jwt);
    return { workspaceId, connectionId };
  }
}
