// The owner's app pages over HTTP, as a browser would use them: sign-in with a session cookie, the plan
// approval page with its CSRF-protected decision, and Developers settings creating a connection whose token
// is shown once (rules plan-approval-signed-in-owner, plan-approver-owner-and-creator, token-shown-once,
// activity-shown-in-developers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../conformance/lib/target.js';
import { referenceServer } from '../../conformance/properties/shared-reference.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let target: Target;
let fx: FixturesClient;
let world: WorldWithPasswords;

beforeAll(async () => {
  target = await referenceServer();
  fx = new FixturesClient(target.url, target.fixturesSecret);
  world = await fx.world({
    users: [{ key: 'olive' }, { key: 'eddie' }, { key: 'sam' }],
    sites: [
      { key: 'main', members: { olive: 'owner', eddie: 'editor' } },
      { key: 'other', members: { sam: 'owner' } },
    ],
  });
});

afterAll(async () => {
  await target?.stop();
});

async function signIn(user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${target.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: user.email, password: user.password, next: '/app/' }),
  });
  expect(res.status).toBe(302);
  const cookie = res.headers.get('set-cookie')!;
  expect(cookie).toMatch(/httponly/i);
  expect(cookie).toMatch(/samesite=strict/i);
  return cookie.split(';')[0]!;
}

const page = async (path: string, cookie?: string) => {
  const res = await fetch(`${target.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
};

const post = (path: string, cookie: string, form: Record<string, string>) =>
  fetch(`${target.url}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

/** The HTTP status of an MCP initialize sent with `token`: 401 once the connection is revoked. */
const bearerStatus = async (token: string) => {
  const res = await fetch(`${target.url}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
  });
  await res.text();
  return res.status;
};

describe('app pages', () => {
  it('refuses a wrong password and redirects an anonymous visitor to sign-in', async () => {
    const res = await fetch(`${target.url}/app/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: world.users.olive!.email, password: 'wrong' }) });
    expect(res.status).toBe(401);
    const anonymous = await page('/app/plans/plan_x');
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/app\/sign-in\?next=/);
  });

  it('rule:plan-approval-signed-in-owner rule:plan-approver-owner-and-creator — only the signed-in owner who created the connection can approve, with a valid form token', async () => {
    const site = world.sites.main!.websiteId;
    const conn = await fx.connection({ userId: world.users.olive!.userId, websiteId: site, scopes: ['publish'] });
    const mcp = new McpConnection(target.url, conn.token);
    const prepared = await mcp.callTool('prepare_publish', {});
    const planId = prepared.envelope.data.planId as string;
    expect(prepared.envelope.data.approvalUrl).toBe(`${target.url}/app/plans/${planId}`);

    const eddie = await signIn(world.users.eddie!);
    const eddieView = await page(`/app/plans/${planId}`, eddie);
    expect(eddieView.html).not.toContain('value="approve"');
    const eddieCsrf = /name="csrf" value="([^"]+)"/.exec((await page(`/app/sites/${site}/developers`, eddie)).html)?.[1];
    expect(eddieCsrf).toBeUndefined(); // an editor's Developers page has no forms at all
    expect((await post(`/app/plans/${planId}/decision`, eddie, { decision: 'approve', csrf: 'guess' })).status).toBe(403);

    const olive = await signIn(world.users.olive!);
    const view = await page(`/app/plans/${planId}`, olive);
    expect(view.html).toContain('Publish the draft');
    const csrf = /name="csrf" value="([^"]+)"/.exec(view.html)![1]!;
    expect((await post(`/app/plans/${planId}/decision`, olive, { decision: 'approve', csrf: 'forged' })).status).toBe(403);
    expect((await mcp.callTool('confirm_pending_action', { planId })).envelope.error?.code).toBe('plan_not_approved');
    expect((await post(`/app/plans/${planId}/decision`, olive, { decision: 'approve', csrf })).status).toBe(200);
    expect((await mcp.callTool('confirm_pending_action', { planId })).envelope.ok).toBe(true);
    await mcp.close();
  });

  it('rule:token-shown-once rule:activity-shown-in-developers rule:api-token-creation-choices — Developers settings show a new token once, then only its prefix and the activity', async () => {
    const site = world.sites.main!.websiteId;
    const olive = await signIn(world.users.olive!);
    const settings = await page(`/app/sites/${site}/developers`, olive);
    const csrf = /name="csrf" value="([^"]+)"/.exec(settings.html)![1]!;
    const created = await post(`/app/sites/${site}/developers/connections`, olive, { csrf, reach: 'workspace', scope: 'crm:read' });
    // POST-redirect-GET: the answer to the form is a redirect, the token is on the page it leads to.
    expect(created.status).toBe(303);
    const tokenPage = created.headers.get('location')!;
    const html = (await page(tokenPage, olive)).html;
    const token = /<code id="token">([^<]+)<\/code>/.exec(html)![1]!;
    expect(token).toMatch(/^smcp_live_/);
    expect(html).toContain('Scopes: site:read, crm:read');
    const mcp = new McpConnection(target.url, token);
    expect((await mcp.callTool('list_leads', {})).envelope.error?.code).toBe('website_required');
    await mcp.close();
    const after = await page(`/app/sites/${site}/developers`, olive);
    expect(after.html).not.toContain(token);
    expect(after.html).toContain(token.slice(0, 14));
    expect(after.html).toContain('list_leads');
  });

  it('rule:token-shown-once — reloading the token page neither shows the token again nor mints a second one', async () => {
    const site = world.sites.main!.websiteId;
    const olive = await signIn(world.users.olive!);
    const prefixes = async () => new Set([...(await page(`/app/sites/${site}/developers`, olive)).html.matchAll(/smcp_live_[A-Za-z0-9_-]{4}/g)].map((m) => m[0])).size;
    const before = await prefixes();
    const csrf = /name="csrf" value="([^"]+)"/.exec((await page(`/app/sites/${site}/developers`, olive)).html)![1]!;
    const created = await post(`/app/sites/${site}/developers/connections`, olive, { csrf, reach: 'website', scope: 'content:write' });
    expect(created.status).toBe(303);
    const location = created.headers.get('location')!;
    const first = await page(location, olive);
    expect(first.html).toMatch(/<code id="token">smcp_live_/);
    const reload = await page(location, olive);
    expect(reload.status).toBe(200);
    expect(reload.html).not.toMatch(/<code id="token">/);
    expect(reload.html).not.toContain(/<code id="token">([^<]+)<\/code>/.exec(first.html)![1]!);
    expect(await prefixes()).toBe(before + 1);
  });

  it('a cross-site revoke is refused: the owner of one website cannot revoke a connection of another', async () => {
    const main = world.sites.main!.websiteId;
    const other = world.sites.other!.websiteId;
    const sams = await fx.connection({ userId: world.users.sam!.userId, websiteId: other, scopes: ['site:read'] });
    const olive = await signIn(world.users.olive!);
    const csrf = /name="csrf" value="([^"]+)"/.exec((await page(`/app/sites/${main}/developers`, olive)).html)![1]!;
    // Through olive's own website, and through the other website's address: both answer as for a missing one.
    expect((await post(`/app/sites/${main}/developers/revoke`, olive, { csrf, connectionId: sams.connectionId })).status).toBe(404);
    expect((await post(`/app/sites/${other}/developers/revoke`, olive, { csrf, connectionId: sams.connectionId })).status).toBe(404);
    expect(await bearerStatus(sams.token)).toBe(200);
    // Its own website's owner can.
    const sam = await signIn(world.users.sam!);
    const samCsrf = /name="csrf" value="([^"]+)"/.exec((await page(`/app/sites/${other}/developers`, sam)).html)![1]!;
    const revoked = await post(`/app/sites/${other}/developers/revoke`, sam, { csrf: samCsrf, connectionId: sams.connectionId });
    expect(revoked.status).toBe(302);
    expect(await bearerStatus(sams.token)).toBe(401);
  });
});

describe('/dashboard/connect', () => {
  it('rule:dashboard-connect-lists-scopes rule:pairing-grant-only-narrower — lists every requested scope with a control to untick it', async () => {
    const start = await (await fetch(`${target.url}/v1/cli/pair/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['site:read', 'content:write', 'crm:read'] }) })).json() as { userCode: string; deviceCode: string };
    const anonymous = await page(`/dashboard/connect?code=${start.userCode}`);
    expect(anonymous.status).toBe(302);
    const olive = await signIn(world.users.olive!);
    const view = await page(`/dashboard/connect?code=${start.userCode}`, olive);
    for (const scope of ['site:read', 'content:write', 'crm:read']) expect(view.html).toContain(`name="scope" value="${scope}" checked`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(view.html)![1]!;
    const approved = await post('/dashboard/connect', olive, { csrf, code: start.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(approved.status).toBe(200);
    const poll = await (await fetch(`${target.url}/v1/cli/pair/poll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceCode: start.deviceCode }) })).json() as { status: string; scopes: string[] };
    expect(poll.status).toBe('approved');
    expect(poll.scopes).toEqual(['site:read']);
  });
});
