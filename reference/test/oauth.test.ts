// The OAuth 2.1 way in (§5.1), end to end over HTTP as a browser chat client would drive it: discovery through
// the protected-resource metadata, dynamic client registration, authorization code with PKCE, sign-in and
// consent as the site owner (narrowing scopes), token exchange for the /api/mcp resource, then MCP calls
// bound to exactly one connection. Invalid or unbound tokens get 401.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../conformance/lib/target.js';
import { referenceServer } from '../../conformance/properties/shared-reference.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { McpConnection, rawMcpPost } from '../../conformance/lib/mcp-client.js';

let target: Target;
let world: WorldWithPasswords;
const jar = new Map<string, string>();
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

async function go(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() } });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    const value = pair!.slice(i + 1);
    if (value) jar.set(pair!.slice(0, i), value);
    else jar.delete(pair!.slice(0, i));
  }
  return res;
}

/** Follows redirects by hand (keeping cookies) until one points at the client's redirect URI. */
async function follow(res: Response, base: string, stopAt: string): Promise<Response | URL> {
  let current = res;
  for (let i = 0; i < 10 && current.status >= 300 && current.status < 400; i++) {
    const location = new URL(current.headers.get('location')!, base);
    if (location.href.startsWith(stopAt)) return location;
    current = await go(location.href);
  }
  return current;
}

beforeAll(async () => {
  target = await referenceServer();
  world = await new FixturesClient(target.url, target.fixturesSecret).world({
    users: [{ key: 'olive' }],
    sites: [{ key: 'main', members: { olive: 'owner' } }],
  });
});

afterAll(async () => {
  await target?.stop();
});

describe('OAuth 2.1', () => {
  it('rule:oauth-external-idp rule:oauth-dynamic-client-registration rule:oauth-token-verified-at-edge rule:oauth-delegation-five-minutes rule:oauth-no-newest-connection-guess rule:oauth-no-caller-profile-id rule:protected-resource-metadata — discovery, registration, PKCE, consent, and bound MCP calls', async () => {
    const prm = (await (await fetch(`${target.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { resource: string; authorization_servers: string[] };
    expect(prm.resource).toBe(`${target.url}/api/mcp`);
    const issuer = prm.authorization_servers[0]!;
    expect(issuer).not.toBe(target.url); // its own issuer, verified like an external one
    const meta = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    const redirectUri = 'http://127.0.0.1:9/callback';
    const reg = await fetch(meta.registration_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
    });
    expect(reg.status).toBe(201);
    const { client_id: clientId } = (await reg.json()) as { client_id: string };

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const auth = new URL(meta.authorization_endpoint!);
    for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid site:read content:write', resource: prm.resource, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz' })) auth.searchParams.set(k, v);
    let step = await follow(await go(auth.href), target.url, redirectUri);
    // Not signed in: the interaction sends us to the app's sign-in page, which will return to it.
    expect(step).toBeInstanceOf(Response);
    const signInPage = await (step as Response).text();
    const next = /name="next" value="([^"]+)"/.exec(signInPage)?.[1];
    expect(next).toMatch(/^\/oidc-interaction\//);
    const olive = world.users.olive!;
    const signIn = await go(`${target.url}/app/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: olive.email, password: olive.password, next: next! }),
    });
    step = await follow(signIn, target.url, redirectUri);
    const consent = await (step as Response).text();
    expect(consent).toContain('name="scope" value="content:write" checked');
    const csrf = /name="csrf" value="([^"]+)"/.exec(consent)![1]!;
    const action = /action="(\/oidc-interaction\/[^"]+\/consent)"/.exec(consent)![1]!; // the consent form, not the sign-out one
    const approved = await go(`${target.url}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([['csrf', csrf], ['decision', 'approve'], ['websiteId', world.sites.main!.websiteId], ['scope', 'site:read']]),
    });
    const callback = (await follow(approved, target.url, redirectUri)) as URL;
    expect(callback).toBeInstanceOf(URL);
    expect(callback.searchParams.get('state')).toBe('xyz');
    const code = callback.searchParams.get('code')!;

    const tokenRes = await fetch(meta.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: prm.resource }),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: accessToken } = (await tokenRes.json()) as { access_token: string };
    expect(accessToken.split('.')).toHaveLength(3);

    const mcp = new McpConnection(target.url, accessToken);
    const pages = await mcp.callTool('list_pages', {});
    expect(pages.envelope.ok).toBe(true);
    // The owner unticked content:write at consent: the bound connection's scopes are the ceiling.
    const edit = await mcp.callTool('update_section_text', { sectionId: world.sites.main!.pages.home!.sections.hero!, field: 'heading', text: 'x' });
    expect(edit.envelope.error?.code).toBe('scope_denied');
    await mcp.close();

    // A tampered token, or a caller-supplied connection id, authenticates nothing.
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    expect((await rawMcpPost(target.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { authorization: `Bearer ${tampered}` })).status).toBe(401);
    expect((await rawMcpPost(target.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'x-connection-id': 'conn_x' })).status).toBe(401);
  });
});
