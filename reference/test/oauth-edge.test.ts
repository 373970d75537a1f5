// The five-minute delegation of the MCP edge (rule oauth-delegation-five-minutes): a verified OAuth token is bound
// to one connection by a signed delegation that lives five minutes; within them a changed binding does not move
// the token, after them the binding is looked up again. The delegation is inside the server, so this is a test of
// the edge itself: a real ES256 access token (jose), the real OAuthEdge, and a store reduced to the two lookups
// the edge makes. The whole OAuth path with the real store runs in oauth-sdk-client.test.ts and oauth.test.ts.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OAuthEdge } from '../auth/oauth-edge.js';
import type { IdentityProvider } from '../auth/oauth-provider.js';
import type { Store } from '../infra/store/store.js';

const issuer = 'http://127.0.0.1:1/oidc';
const resource = 'http://127.0.0.1:1/api/mcp';
let sign: (claims: Record<string, unknown>) => Promise<string>;
let idp: IdentityProvider;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  idp = { issuer, resource, publicJwks: { keys: [publicJwk] }, provider: undefined as never };
  sign = (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(issuer).setAudience(resource).setIssuedAt().setExpirationTime('1h').sign(privateKey);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A store whose OAuth binding the test moves: two live connections of one workspace. */
function storeBoundTo(connectionId: { current: string }): Store {
  const ws = { id: 'ws_1', connections: { conn_a: { connectionId: 'conn_a', scopes: ['site:read'] }, conn_b: { connectionId: 'conn_b', scopes: ['site:read', 'content:write'] } } };
  return {
    lookupDirectory: async (kind: string, key: string) => (kind === 'oauth' && key === OAuthEdge.bindingKey('client_1', 'user_1') ? `ws_1 ${connectionId.current}` : undefined),
    read: async (id: string) => (id === 'ws_1' ? ws : undefined),
  } as unknown as Store;
}

describe('the five-minute delegation', () => {
  it('rule:oauth-delegation-five-minutes — a token stays bound to its connection for five minutes, then follows the recorded binding', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-11-23T10:00:00Z');
    vi.setSystemTime(start);
    const binding = { current: 'conn_a' };
    const edge = new OAuthEdge(idp);
    const store = storeBoundTo(binding);
    const token = await sign({ client_id: 'client_1', sub: 'user_1' });
    expect((await edge.authenticate(store, token))?.connectionId).toBe('conn_a');

    // The owner re-approves the client onto another connection: the signed delegation still holds.
    binding.current = 'conn_b';
    vi.setSystemTime(new Date(start.getTime() + 299_000));
    expect((await edge.authenticate(store, token))?.connectionId).toBe('conn_a');

    // Five minutes on, the delegation has expired and the binding is read again.
    vi.setSystemTime(new Date(start.getTime() + 301_000));
    expect((await edge.authenticate(store, token))?.connectionId).toBe('conn_b');
  });

  it('rule:oauth-no-caller-profile-id — a token of another client or subject gets nothing from a delegation it did not earn', async () => {
    const edge = new OAuthEdge(idp);
    const store = storeBoundTo({ current: 'conn_a' });
    expect((await edge.authenticate(store, await sign({ client_id: 'client_1', sub: 'user_1' })))?.connectionId).toBe('conn_a');
    expect(await edge.authenticate(store, await sign({ client_id: 'client_2', sub: 'user_1' }))).toBeNull();
    expect(await edge.authenticate(store, await sign({ client_id: 'client_1', sub: 'user_2' }))).toBeNull();
    expect(await edge.authenticate(store, await sign({ client_id: 'client_1', sub: 'user_1', connection_id: 'conn_b', profile_id: 'conn_b' }))).toMatchObject({ connectionId: 'conn_a' });
  });
});
