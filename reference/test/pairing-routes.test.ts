// The pairing routes of the reference over HTTP (reference/api/pairing.ts, auth-md.ts, delivery.ts and
// reference/web/connect.ts; §4.1, §5.3–5.5): the start and poll refusing a body that is not theirs, /auth.md as
// Markdown with one line per scope, the delivery endpoint's refusals (no token, an unknown one, a malformed header,
// an unpublished site, a token whose company is gone) and the owner's approval screen /dashboard/connect: which
// websites it offers, when it offers a company-wide approval, and what approving, denying, an unknown code and a
// refused or failed approval answer. features/pairing.feature and app-pages.test.ts walk the happy path; these pin
// what they leave open (the mutants they leave alive).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, SCOPE_GRANTS } from '../domain/scopes.js';
import { approveAs } from '../api/pairing.js';
import { Pairings } from '../domain/pairing.js';
import type { WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { startTestServer, type TestServer, signInCookie, appPage } from './harness.js';

let test: TestServer;
let world: WorldResponse;
beforeAll(async () => {
  test = await startTestServer('pairing-routes');
  // olive owns "main" and only edits "side" (sam's); eddie edits "main". "draft" is olive's and not published.
  world = await test.fx.world({
    users: [{ key: 'olive' }, { key: 'eddie' }, { key: 'sam' }],
    sites: [
      { key: 'main', name: 'Main shop', members: { olive: 'owner', eddie: 'editor' }, published: true },
      { key: 'side', name: 'Side shop', members: { sam: 'owner', olive: 'editor' }, published: true },
      { key: 'draft', name: 'Draft shop', members: { olive: 'owner' } },
    ],
  });
});
afterAll(async () => {
  await test?.stop();
});

interface Started { userCode: string; deviceCode: string }
const postJson = async (path: string, body: unknown) => {
  const res = await fetch(`${test.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};
const start = async (body: Record<string, unknown> = { scopes: ['site:read', 'content:write'] }) => (await postJson('/v1/cli/pair/start', body)).json as Started;
const poll = async (deviceCode: string) => (await postJson('/v1/cli/pair/poll', { deviceCode })).json;

const signIn = (user: { email: string; password?: string }) => signInCookie(test.url, user);
const page = (path: string, cookie: string) => appPage(test.url, path, cookie);
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
const decide = async (cookie: string, form: Record<string, string>) => {
  const res = await fetch(`${test.url}/dashboard/connect`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, html: await res.text() };
};
/** The paragraphs of a message page (web/views/message.eta) and its heading. */
const said = (html: string) => ({ title: /<title>([^<]*) · site-mcp<\/title>/.exec(html)?.[1], paragraphs: [...html.matchAll(/<p>([^<]*)<\/p>/g)].map((m) => m[1]) });
const websiteOptions = (html: string) => [...html.matchAll(/<option value="([^"]+)">/g)].map((m) => m[1]);

describe('POST /v1/cli/pair/start and /poll', () => {
  it('a body that does not match the request schema is refused as validation_failed, naming the schema', async () => {
    for (const [path, body, def] of [
      ['/v1/cli/pair/start', { scopes: 'site:read' }, 'PairStartRequest'],
      ['/v1/cli/pair/start', {}, 'PairStartRequest'],
      ['/v1/cli/pair/poll', { deviceCode: 42 }, 'PairPollRequest'],
    ] as const) {
      const answer = await postJson(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.json.error.code).toBe('validation_failed');
      expect(answer.json.error.message).toMatch(new RegExp(`^Body does not match ${def}: .+`));
    }
  });

  it('an error that is not a refusal is not answered as one: the server answers 500 without its message', async () => {
    const pairings = test.server.parts.pairings;
    const real = pairings.poll;
    pairings.poll = () => {
      throw new TypeError('the poll broke');
    };
    try {
      const answer = await postJson('/v1/cli/pair/poll', { deviceCode: 'x' });
      expect(answer).toEqual({ status: 500, json: { error: { code: 'internal_error', message: 'Unexpected server error.' } } });
    } finally {
      pairings.poll = real;
    }
  });
});

describe('/auth.md', () => {
  it('rule:auth-md-discovery — is Markdown, with each scope of the catalogue on a line of its own', async () => {
    const res = await fetch(`${test.url}/auth.md`);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const lines = (await res.text()).split('\n');
    for (const scope of ALL_SCOPES) expect(lines).toContain(`- \`${scope}\` — ${SCOPE_GRANTS[scope]}`);
  });
});

describe('GET /v1/delivery/site', () => {
  /** A read-only pairing approved by olive for `site`, and the delivery token its poll handed out. */
  async function deliveryToken(site: string): Promise<string> {
    const started = await start({ scopes: ['site:read'], readOnly: true });
    await test.fx.approvePairing(started.userCode, { userId: world.users.olive!.userId, websiteId: world.sites[site]!.websiteId, scopes: [] });
    return (await poll(started.deviceCode)).token as string;
  }
  const read = async (authorization?: string) => {
    const res = await fetch(`${test.url}/v1/delivery/site`, { headers: authorization === undefined ? {} : { authorization } });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const UNAUTHENTICATED = { status: 401, json: { error: { code: 'unauthenticated', message: 'A delivery token from a read-only pairing is required.' } } };

  it('rule:delivery-token-read-published-only — the token of a published site reads it, also after more than one space; anything else is unauthenticated', async () => {
    const token = await deliveryToken('main');
    expect((await read(`Bearer ${token}`)).json.format).toBe('PortableSiteV1');
    expect((await read(`bearer  ${token}`)).status).toBe(200);
    expect(await read()).toEqual(UNAUTHENTICATED);
    expect(await read(`Bearer smcp_deliver_${'A'.repeat(43)}`)).toEqual(UNAUTHENTICATED);
    // The header is the token and nothing else: no other scheme in front, nothing after it.
    expect(await read(`NotBearer ${token}`)).toEqual(UNAUTHENTICATED);
    expect(await read(`Bearer ${token} more`)).toEqual(UNAUTHENTICATED);
  });

  it('the token of a site that is not published answers 404, and one whose company is gone is unauthenticated', async () => {
    const token = await deliveryToken('draft');
    expect(await read(`Bearer ${token}`)).toEqual({ status: 404, json: { error: { code: 'not_found', message: 'This site is not published.' } } });
    // A token still findable though its company no longer exists.
    const orphan = `smcp_deliver_${'B'.repeat(43)}`;
    await test.server.parts.store.transact(world.workspaceId, (_ws, tx) => tx.index('delivery', createHash('sha256').update(orphan).digest('hex'), `ws_gone ${world.sites.main!.websiteId}`));
    expect(await read(`Bearer ${orphan}`)).toEqual(UNAUTHENTICATED);
  });
});

describe('/dashboard/connect', () => {
  it('without a code it asks for one; an unknown or decided code answers 404 and offers no approval', async () => {
    const olive = await signIn(world.users.olive!);
    const empty = await page('/dashboard/connect', olive);
    expect(empty.status).toBe(200);
    expect(said(empty.html).title).toBe('Connect a tool');
    expect(empty.html).toContain('name="code" value=""');
    expect(empty.html).not.toContain('That code is unknown');

    const unknown = await page('/dashboard/connect?code=ABCD-EFGH', olive);
    expect(unknown.status).toBe(404);
    expect(said(unknown.html).title).toBe('Connect a tool');
    expect(unknown.html).toContain('name="code" value="ABCD-EFGH"');
    expect(unknown.html).toContain('That code is unknown, used or expired.');

    const denied = await start();
    const csrf = csrfOf((await page(`/dashboard/connect?code=${denied.userCode}`, olive)).html);
    await decide(olive, { csrf, code: denied.userCode, decision: 'deny' });
    const after = await page(`/dashboard/connect?code=${denied.userCode}`, olive);
    expect(after.status).toBe(404);
    expect(after.html).not.toContain('value="approve"');
  });

  it('rule:pairing-approval-owner-only — offers only the websites the signed-in person owns', async () => {
    const olive = await signIn(world.users.olive!);
    const { userCode } = await start();
    const view = await page(`/dashboard/connect?code=${userCode}`, olive);
    expect(view.status).toBe(200);
    expect(said(view.html).title).toBe('Connect a tool');
    expect(websiteOptions(view.html).sort()).toEqual([world.sites.main!.websiteId, world.sites.draft!.websiteId].sort());
    expect(view.html).not.toContain('the approval covers the whole company');
  });

  it('rule:pairing-company-wide rule:pairing-admin-needs-website — a company without a website: its owner is offered a company-wide approval, unless the pairing is admin or read-only; another member is not', async () => {
    const empty = await test.fx.world({ users: [{ key: 'nina' }, { key: 'ned' }], sites: [] });
    const nina = await signIn(empty.users.nina!);
    const ned = await signIn(empty.users.ned!);
    const COMPANY_WIDE = 'This company has no website yet: the approval covers the whole company.';
    const offered = async (cookie: string, body?: Record<string, unknown>) => (await page(`/dashboard/connect?code=${(await start(body)).userCode}`, cookie)).html.includes(COMPANY_WIDE);
    expect(await offered(nina)).toBe(true);
    expect(await offered(ned)).toBe(false);
    expect(await offered(nina, { scopes: ['site:read'], admin: true })).toBe(false);
    expect(await offered(nina, { scopes: ['site:read'], readOnly: true })).toBe(false);
  });

  it('approving says so; denying leaves the tool nothing; an unknown code is refused', async () => {
    const olive = await signIn(world.users.olive!);
    const approved = await start();
    const csrf = csrfOf((await page(`/dashboard/connect?code=${approved.userCode}`, olive)).html);
    const yes = await decide(olive, { csrf, code: approved.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(yes.status).toBe(200);
    expect(said(yes.html)).toEqual({ title: 'Approved', paragraphs: ['Return to your terminal: the tool receives its token on its next poll.'] });
    expect((await poll(approved.deviceCode)).status).toBe('approved');

    const denied = await start();
    const no = await decide(olive, { csrf, code: denied.userCode, decision: 'deny', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(no.status).toBe(200);
    expect(said(no.html)).toEqual({ title: 'Denied', paragraphs: ['The tool gets nothing.'] });
    expect(await poll(denied.deviceCode)).toEqual({ status: 'denied' });

    const unknown = await decide(olive, { csrf, code: 'ABCD-EFGH', decision: 'approve', websiteId: world.sites.main!.websiteId });
    expect(unknown.status).toBe(404);
    expect(said(unknown.html)).toEqual({ title: 'Connect a tool', paragraphs: ['That code is unknown, used or expired.'] });
  });

  it('rule:pairing-approval-owner-only — a refused approval says why with its status, and the pairing stays pending', async () => {
    const eddie = await signIn(world.users.eddie!);
    const started = await start();
    const csrf = csrfOf((await page(`/dashboard/connect?code=${started.userCode}`, eddie)).html);
    const refused = await decide(eddie, { csrf, code: started.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(refused.status).toBe(403);
    expect(said(refused.html)).toEqual({ title: 'Not approved', paragraphs: ['Only an owner of this website can approve a pairing.'] });
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });
  });

  it('an approval whose write fails is a server error, not a refusal, and hands the tool nothing (§7.3: it rolls back whole)', async () => {
    const olive = await signIn(world.users.olive!);
    const started = await start();
    const csrf = csrfOf((await page(`/dashboard/connect?code=${started.userCode}`, olive)).html);
    await test.fx.failNextWrite(world.workspaceId);
    const failed = await decide(olive, { csrf, code: started.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(failed.status).toBe(500);
    expect(await poll(started.deviceCode)).toEqual({ status: 'pending' });
    // The owner can approve it again, and then the tool gets a token that works.
    const again = await decide(olive, { csrf, code: started.userCode, decision: 'approve', websiteId: world.sites.main!.websiteId, scope: 'site:read' });
    expect(again.status).toBe(200);
    expect((await poll(started.deviceCode)).status).toBe('approved');
  });
});

describe('approveAs', () => {
  it('refuses a user who does not exist as not_found', async () => {
    const { userCode } = await start();
    const pairing = test.server.parts.pairings.find(userCode)!;
    await expect(approveAs(test.server.parts, pairing, { userId: 'usr_nobody', websiteId: null, scopes: [] })).rejects.toMatchObject({ code: 'not_found', message: 'No such user.' });
    expect(pairing.status).toBe('pending');
  });

  it('a refused approval of a decided pairing leaves it as it was: denied stays denied, approved keeps its token for the poll', async () => {
    const parts = test.server.parts;
    const olive = { userId: world.users.olive!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read'] };
    const denied = await start();
    parts.pairings.deny(parts.pairings.find(denied.userCode)!);
    await expect(approveAs(parts, parts.pairings.find(denied.userCode)!, olive)).rejects.toMatchObject({ code: 'conflict', message: 'This pairing is denied.' });
    expect(await poll(denied.deviceCode)).toEqual({ status: 'denied' });

    const approved = await start();
    await approveAs(parts, parts.pairings.find(approved.userCode)!, olive);
    await expect(approveAs(parts, parts.pairings.find(approved.userCode)!, olive)).rejects.toMatchObject({ code: 'conflict', message: 'This pairing is approved.' });
    expect(await poll(approved.deviceCode)).toMatchObject({ status: 'approved', kind: 'connection', scopes: ['site:read'] });
  });

  it('no poll hands out the token before the connection it names is stored: until the commit, the pairing reads as pending', async () => {
    const parts = test.server.parts;
    const olive = { userId: world.users.olive!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read'] };
    // A pool of its own: this file's company holds its share of pairings already (rule pairings-capacity-per-owner).
    const pairings = new Pairings();
    const { pairing, deviceCode } = pairings.start({ scopes: ['site:read'] });
    // The commit is held open while the tool polls: the decision is made in the transaction, not yet stored.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let polledMeanwhile: unknown;
    const store = {
      lookupDirectory: parts.store.lookupDirectory.bind(parts.store),
      transact: (async (wsId: string, work: (...args: never[]) => unknown) => {
        const result = await parts.store.transact(wsId, work as never);
        polledMeanwhile = pairings.poll(deviceCode);
        await held;
        return result;
      }) as typeof parts.store.transact,
    } as typeof parts.store;
    const approving = approveAs({ ...parts, store, pairings }, pairing, olive);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await approving;
    expect(polledMeanwhile).toEqual({ status: 'pending' });
    expect(pairings.poll(deviceCode)).toMatchObject({ status: 'approved', kind: 'connection' });
  });
});
