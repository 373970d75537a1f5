// The conformance fixtures protocol (conformance/docs/fixtures-protocol.md, spec/schemas/fixtures/fixtures.schema.json).
// Mounted only by the test-mode composition (./index.ts), when the server has a fixtures secret; a request
// without the right secret gets the same 404 as a server without the protocol. Each handler reuses the domain
// code the app itself uses.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { timingSafeEqual, createHash, randomBytes } from 'node:crypto';
import { sharedAjv } from '../../spec/index.js';
import type * as F from '../../generated/schemas/fixtures/fixtures.js';
import type { PairApproveRequest } from '../../generated/schemas/pairing.js';
import { DomainError } from '../domain/errors.js';
import { connectionView, createConnection } from '../domain/connections.js';
import { indexConnection } from '../auth/authenticate.js';
import { buildWorld } from './world.js';
import { fingerprint } from '../domain/site.js';
import { appEditRecord, appEditSectionText } from '../domain/app-edits.js';
import { companyFacts } from '../domain/company.js';
import { collectExpiredPlans, decidePlan } from '../domain/plans.js';
import { approveAs } from '../api/pairing.js';
import { DELIVERY_PATH } from '../api/delivery.js';
import type { Limits } from '../../spec/index.js';
import type { Clock } from '../infra/clock.js';
import type { DnsClient } from '../infra/dns.js';
import type { Pairings } from '../domain/pairing.js';
import type { Sessions } from '../web/session.js';
import type { ActivityLog } from '../infra/store/activity.js';
import type { Store } from '../infra/store/store.js';
import type { Network } from '../infra/safe-fetch.js';
import { systemResolve } from '../infra/safe-fetch.js';
import type { TestClock } from './clock.js';
import { readJsonBody } from '../api/body.js';
import { answerError } from '../api/errors.js';
import { entryOf } from '../domain/model.js';
import { consentAsOwner } from './oauth-consent.js';
import { hashPassword } from '../auth/passwords.js';

const SCHEMA = 'https://site-mcp.invalid/spec/schemas/fixtures/fixtures.schema.json';

/** Each request of the protocol by its $defs name, as generated from the fixtures schema. */
interface Requests {
  WorldRequest: F.WorldRequest;
  ConnectionRequest: F.ConnectionRequest;
  MembershipRequest: F.MembershipRequest;
  WorkspaceSettingsRequest: F.WorkspaceSettingsRequest;
  ClockRequest: F.ClockRequest;
  AppEditRequest: F.AppEditRequest;
  RecordEditRequest: F.RecordEditRequest;
  PlanDecisionRequest: F.PlanDecisionRequest;
  FetchAllowlistRequest: F.FetchAllowlistRequest;
  DnsResolverRequest: F.DnsResolverRequest;
  OAuthConsentRequest: F.OAuthConsentRequest;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** What the protocol sets and the test-mode composition (./index.ts) installs into the server's seams. */
export interface TestSeams {
  /** The one-shot faults a scenario arms, per workspace. */
  faults: { failNextWrite: Set<string>; invalidNextAnswer: Set<string>; failNextImage: Set<string>; noCaptureNextMigration: Set<string> };
  /** The server's network, a copy the composition made: fetch-allowlist sets its allowOrigins. */
  net: Network;
  /** The server's clock: the clock route advances one workspace's time. */
  clock: TestClock;
}

/** What the protocol uses of the server, beyond the seams test mode installed (TestSeams). */
export interface FixturesPorts {
  readonly store: Store;
  readonly clock: Clock;
  readonly activity: ActivityLog;
  /** The composed limits, so the limits route answers this server's own (part limits). */
  readonly limits: Limits;
  /** dns-resolver: the resolver domain verification asks. */
  readonly dns: DnsClient;
  readonly pairings: Pairings;
  /** oauth-consent: the owner's signed-in session. */
  readonly sessions: Sessions;
  /** oauth-consent: the one origin its user agent requests. */
  readonly baseUrl: string;
}

export function fixturesRouter(ports: FixturesPorts, secret: string, seams: TestSeams): Router {
  const { faults } = seams;
  const ajv = sharedAjv();
  const router = new Router({ prefix: '/test-fixtures/v1' });

  const validated = <T>(def: string, body: unknown): T => {
    const validate = ajv.getSchema(`${SCHEMA}#/$defs/${def}`)!;
    if (!validate(body)) {
      throw new DomainError('validation_failed', `Body does not match ${def}: ${ajv.errorsText(validate.errors)}`);
    }
    return body as T;
  };
  const validatedPairing = (value: unknown): PairApproveRequest => {
    const v = ajv.getSchema('https://site-mcp.invalid/spec/schemas/pairing.schema.json#/$defs/PairApproveRequest')!;
    if (!v(value)) throw new DomainError('validation_failed', `Body does not match PairApproveRequest: ${ajv.errorsText(v.errors)}`);
    return value as PairApproveRequest; // just validated against the schema this type is generated from
  };
  /** A request body validated against its $defs entry of the fixtures schema, typed by that entry's generated type. */
  const body = async <K extends keyof Requests>(ctx: Context, def: K): Promise<Requests[K]> => validated<Requests[K]>(def, await readJsonBody(ctx.req, 1024 * 1024));
  const workspaceOf = async (kind: 'site' | 'user', id: string) => {
    const wsId = await ports.store.lookupDirectory(kind, id);
    if (!wsId) throw new DomainError('not_found', `No ${kind} "${id}".`);
    return wsId;
  };

  router.use(async (ctx: Context, next: Next) => {
    const given = ctx.get('x-fixtures-secret');
    if (!given || !sameSecret(given, secret)) {
      ctx.status = 404;
      return;
    }
    try {
      await next();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      answerError(ctx, error);
    }
  });

  // The handshake a conformance run starts with (conformance/docs/fixtures-protocol.md).
  router.get('/', (ctx) => {
    ctx.body = {
      protocol: 'site-mcp-fixtures',
      version: 1,
      // The pairing bodies carry our names (rule pairing-field-names): none renamed, and our delivery address.
      pairingNames: { deliveryPath: DELIVERY_PATH },
      supports: ['worlds', 'connections', 'memberships', 'settings', 'clock', 'app-edits', 'plan-decisions', 'pairings', 'dns-resolver', 'plans', 'sites', 'activity', 'fetch-allowlist', 'fetch-allowlist-tls', 'record-edits', 'companies', 'fail-next-write', 'invalid-next-answer', 'fail-next-image', 'no-capture-next-migration', 'oauth-consent', 'restore-points', 'passwords-on-demand', 'connection-plans', 'fetch-resolver', 'limits'],
    };
  });

  router.post('/worlds', async (ctx) => {
    const request = await body(ctx, 'WorldRequest');
    ctx.body = await buildWorld(ports.store, request, new Date(), { baseUrl: ports.baseUrl });
  });

  // Optional part passwords-on-demand: a world built with passwordsOnDemand has users without a password, and
  // the kit gives one to a user only when a scenario signs in as them. Hashed before the transaction, so the
  // workspace is not held for the scrypt.
  router.post('/users/:userId/password', async (ctx) => {
    const userId = ctx.params.userId!;
    const wsId = await workspaceOf('user', userId);
    const password = randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    await ports.store.transact(wsId, (ws) => {
      const user = entryOf(ws.users, userId);
      if (!user) throw new DomainError('not_found', `No user "${userId}".`);
      user.passwordHash = passwordHash;
    });
    const answer: F.UserPassword = { password };
    ctx.body = answer;
  });

  router.post('/connections', async (ctx) => {
    const request = await body(ctx, 'ConnectionRequest');
    const wsId = await workspaceOf('user', request.userId);
    const { token, view } = await ports.store.transact(wsId, (ws, tx) => {
      const now = ports.clock.now(ws.id);
      const created = createConnection(
        ws,
        {
          userId: request.userId,
          websiteId: request.websiteId === undefined ? firstOwnedSite(ws, request.userId) : request.websiteId,
          reach: request.reach,
          scopes: request.scopes,
          preset: request.preset,
          createdAt: request.createdAt ? new Date(request.createdAt) : undefined,
        },
        now,
      );
      indexConnection(tx, created.connection, wsId);
      return { ...created, view: connectionView(created.connection, now) };
    });
    ctx.body = { ...view, token };
  });

  router.get('/connections/:id', async (ctx) => {
    const found = await findConnection(ports, ctx.params.id!);
    ctx.body = connectionView(found.connection, ports.clock.now(found.ws.id));
  });

  router.get('/connections/:id/activity', async (ctx) => {
    const found = await findConnection(ports, ctx.params.id!);
    ctx.body = { entries: await ports.activity.read(found.ws.id, ports.clock.now(found.ws.id), found.connection.connectionId) };
  });

  // The plans a connection prepared, newest first (part connection-plans): the kit names a plan without knowing
  // where a prepare_* answer carries its id.
  router.get('/connections/:id/plans', async (ctx) => {
    const found = await findConnection(ports, ctx.params.id!);
    const plans = Object.values(found.ws.plans)
      .filter((plan) => plan.connectionId === found.connection.connectionId)
      .reverse() // the later of two plans made in one millisecond first (the sort is stable)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const answer: F.ConnectionPlans = { plans: plans.map((p) => ({ planId: p.planId, createdAt: p.createdAt, status: p.status, websiteId: p.websiteId })) };
    ctx.body = answer;
  });

  // The limits §8 leaves open as this server enforces them (part limits): ports.limits is the composed one, so a
  // server started with --decision-limits, or a broken server with other limits, answers its own values.
  router.get('/limits', (ctx) => {
    const { throttles, importMaxBytes, siteLimitByPlan, imageCreditCost, crawl } = ports.limits;
    const throttle = (name: 'connect_domain' | 'generate_image' | 'create_site') => ({ limit: throttles[name]!.limit, windowSeconds: throttles[name]!.windowSeconds });
    const answer: F.LimitValues = {
      throttles: { connect_domain: throttle('connect_domain'), generate_image: throttle('generate_image'), create_site: throttle('create_site') },
      importMaxBytes: { value: importMaxBytes.value },
      siteLimitByPlan: { free: siteLimitByPlan.free!, starter: siteLimitByPlan.starter!, business: siteLimitByPlan.business!, agency: siteLimitByPlan.agency! },
      imageCreditCost: { value: imageCreditCost.value },
      // The whole call ends within it, each step taking at most what is left (rule migrate-crawl-time-bounded).
      migrationSeconds: { value: crawl.migrationSeconds },
    };
    ctx.body = answer;
  });

  router.post('/memberships', async (ctx) => {
    const request = await body(ctx, 'MembershipRequest');
    const wsId = await workspaceOf('site', request.websiteId);
    await ports.store.transact(wsId, (ws) => {
      const site = entryOf(ws.sites, request.websiteId);
      if (!site || !ws.users[request.userId]) throw new DomainError('not_found', 'No such site or user in that workspace.');
      if (request.role === null) delete site.members[request.userId];
      else site.members[request.userId] = request.role;
    });
    ctx.body = {};
  });

  router.post('/workspaces/:id/settings', async (ctx) => {
    const request = await body(ctx, 'WorkspaceSettingsRequest');
    await ports.store.transact(ctx.params.id!, (ws) => {
      Object.assign(ws, request);
    }).catch(notFoundWorkspace);
    ctx.body = {};
  });

  // The workspace's own clock moves on; every other workspace's stays (the test clock, ./clock.ts).
  router.post('/workspaces/:id/clock', async (ctx) => {
    const request = await body(ctx, 'ClockRequest');
    if (!(await ports.store.exists(ctx.params.id!))) throw new DomainError('not_found', 'No such workspace.');
    ctx.body = { now: seams.clock.advance(ctx.params.id!, request.advanceSeconds).toISOString() };
  });

  router.post('/app-edits', async (ctx) => {
    const request = await body(ctx, 'AppEditRequest');
    const wsId = await workspaceOf('site', request.websiteId);
    ctx.body = await ports.store.transact(wsId, (ws) => appEditSectionText(ws, request, ports.clock.now(ws.id)));
  });

  // One-shot faults a scenario arms for a workspace; each route adds the workspace to the set that test mode's
  // decoration of a seam reads (./index.ts):
  //   fail-next-write: the next write fails like a failed disk write (§7.3: the operation rolls back whole);
  //   invalid-next-answer: the next tool answer fails its output check, as a server bug would (§7.3; rule
  //     tool-answer-checked-before-commit);
  //   fail-next-image: the image provider fails the next image, as an outage would (§4.3: credits are charged
  //     only after delivery; rule generate-image-charged-after-delivery).
  const faultRoutes: [route: string, armed: Set<string>][] = [
    ['fail-next-write', faults.failNextWrite],
    ['invalid-next-answer', faults.invalidNextAnswer],
    ['fail-next-image', faults.failNextImage],
    ['no-capture-next-migration', faults.noCaptureNextMigration],
  ];
  for (const [route, armed] of faultRoutes) {
    router.post(`/workspaces/:id/${route}`, async (ctx) => {
      if (!(await ports.store.exists(ctx.params.id!))) throw new DomainError('not_found', `No workspace "${ctx.params.id}".`);
      armed.add(ctx.params.id!);
      ctx.body = {};
    });
  }

  router.get('/users/:userId/companies', async (ctx) => {
    const companies = [];
    for (const id of await ports.store.workspaceIds()) {
      const ws = await ports.store.read(id);
      if (!ws || ws.ownerUserId !== ctx.params.userId) continue;
      companies.push({ workspaceId: ws.id, companyName: ws.companyName, ...companyFacts(ws) });
    }
    ctx.body = { companies };
  });

  router.post('/record-edits', async (ctx) => {
    const request = await body(ctx, 'RecordEditRequest');
    const wsId = await workspaceOf('site', request.websiteId);
    ctx.body = await ports.store.transact(wsId, (ws) => appEditRecord(ws, request, ports.clock.now(ws.id)));
  });

  // Approve or decline as a signed-in user would, through the app page's code path (decidePlan).
  for (const decision of ['approve', 'decline'] as const) {
    router.post(`/plans/:planId/${decision}`, async (ctx) => {
      const request = await body(ctx, 'PlanDecisionRequest');
      const wsId = await workspaceOf('user', request.userId);
      const plan = await ports.store.transact(wsId, (ws) => decidePlan(ws, ctx.params.planId!, request.userId, decision, ports.clock.now(ws.id)));
      ctx.body = { status: plan.status };
    });
  }

  router.get('/plans/:planId', async (ctx) => {
    const wsId = String(ctx.query.workspaceId ?? '');
    if (!(await ports.store.read(wsId))) throw new DomainError('not_found', 'No such workspace.');
    // Collect first, as any write would, so an expired plan is observably gone (rule plan-expired-garbage-collected).
    const ws = await ports.store.transact(wsId, (doc) => {
      collectExpiredPlans(doc, ports.clock.now(doc.id));
      return doc;
    });
    const plan = entryOf(ws.plans, ctx.params.planId);
    if (!plan) throw new DomainError('not_found', 'No such plan (never created, or garbage-collected after expiry).');
    ctx.body = { planId: plan.planId, status: plan.status, kind: plan.kind, websiteId: plan.websiteId, expiresAt: plan.expiresAt };
  });

  // Approve a pairing as a signed-in user would at /dashboard/connect (same code path).
  router.post('/pairings/:userCode/approve', async (ctx) => {
    const request = validatedPairing(await readJsonBody(ctx.req, 64 * 1024));
    const pairing = ports.pairings.find(ctx.params.userCode!);
    if (!pairing) throw new DomainError('not_found', 'No such pairing (unknown, used or expired).');
    await approveAs(ports, pairing, request);
    ctx.body = { status: pairing.status };
  });

  // Loopback origins the fetcher may reach in test mode (the kit's own website); every other check stays. The
  // certificates (part fetch-allowlist-tls) are trusted for those origins' https URLs only (safe-fetch.ts).
  router.post('/fetch-allowlist', async (ctx) => {
    const request = await body(ctx, 'FetchAllowlistRequest');
    seams.net.allowOrigins = request.origins;
    seams.net.allowCertificates = request.certificates ?? [];
    ctx.body = {};
  });

  // Points domain verification at the suite's DNS stub (test mode only), and with it (part fetch-resolver) the
  // name lookups of imports and migrations: a name the stub knows is judged by the stub's addresses, which the
  // fetcher checks as any others (rule migrate-ssrf-names-resolved); one it does not know goes to the system resolver.
  router.post('/dns-resolver', async (ctx) => {
    const request = await body(ctx, 'DnsResolverRequest');
    ports.dns.useServer(request.server);
    const dns = ports.dns;
    seams.net.resolve = async (hostname) => {
      const fromStub = await dns.addresses(hostname);
      return fromStub.length ? fromStub : systemResolve(hostname);
    };
    ctx.body = {};
  });

  router.post('/oauth-consent', async (ctx) => {
    const request = await body(ctx, 'OAuthConsentRequest');
    ctx.body = await consentAsOwner(ports, await workspaceOf('user', request.userId), request);
  });

  router.get('/sites/:id', async (ctx) => {
    const wsId = await workspaceOf('site', ctx.params.id!);
    const ws = (await ports.store.read(wsId))!;
    const site = ws.sites[ctx.params.id!]!;
    ctx.body = {
      websiteId: site.websiteId,
      workspaceId: ws.id,
      siteRevision: site.siteRevision,
      publishedRevision: site.published?.revision ?? null,
      draftFingerprint: fingerprint(site.draft),
      publishedFingerprint: site.published ? fingerprint(site.published.content) : null,
      status: site.published ? 'published' : 'unpublished',
      searchVisible: site.searchVisible,
    };
  });

  // What each merge saved before it changed the draft (rule import-merge-restore-point), by the same fingerprint
  // as the site's draftFingerprint above.
  router.get('/sites/:id/restore-points', async (ctx) => {
    const wsId = await workspaceOf('site', ctx.params.id!);
    const site = (await ports.store.read(wsId))!.sites[ctx.params.id!]!;
    ctx.body = { restorePoints: site.restorePoints.map((r) => ({ restorePointId: r.restorePointId, createdAt: r.createdAt, draftFingerprint: fingerprint(r.draft) })) };
  });

  return router;
}

function notFoundWorkspace(error: unknown): never {
  if (error instanceof Error && /does not exist/.test(error.message)) throw new DomainError('not_found', 'No such workspace.');
  throw error;
}

function firstOwnedSite(ws: { sites: Record<string, { websiteId: string; members: Record<string, string>; createdAt: string }> }, userId: string): string | null {
  const owned = Object.values(ws.sites).filter((s) => s.members[userId] === 'owner').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return owned[0]?.websiteId ?? (Object.keys(ws.sites).length === 0 ? null : Object.values(ws.sites)[0]!.websiteId);
}

async function findConnection(ports: Pick<FixturesPorts, 'store'>, connectionId: string) {
  const wsId = await ports.store.lookupDirectory('connection', connectionId);
  const ws = wsId ? await ports.store.read(wsId) : undefined;
  const connection = (ws ? entryOf(ws.connections, connectionId) : undefined);
  if (!ws || !connection) throw new DomainError('not_found', `No connection "${connectionId}".`);
  return { ws, connection };
}
