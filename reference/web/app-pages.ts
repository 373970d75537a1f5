// The owner's app pages of the reference server: sign-in, plan approval (§2.6: approval only by a signed-in
// owner, never over MCP) and Developers settings (§1.3, §5.2: create, list and revoke connections, read
// their activity). Pages are templates of reference/web/views; session and CSRF are the middleware of
// reference/web/session.ts.
import Router from '@koa/router';
import { verifySignInPassword } from '../auth/passwords.js';
import { decidePlan, collectExpiredPlans } from '../domain/plans.js';
import { connectionView, createConnection } from '../domain/connections.js';
import { indexConnection } from '../auth/authenticate.js';
import { ALL_SCOPES, SCOPE_GRANTS } from '../domain/scopes.js';
import { DomainError } from '../domain/errors.js';
import { HTTP_STATUS } from '../api/errors.js';
import { authorizeRevoke, mayDecidePlan, mayViewPlan } from '../domain/authorize.js';
import { appSecurityHeaders, message, render } from './render.js';
import { checkedForm, formOf, readForm, safeNext, sessionOf, signedIn, type Sessions } from './session.js';
import { SignInThrottle } from '../auth/sign-in-throttle.js';
import { clientAddress } from '../api/client-address.js';
import { entryOf, type Connection, type Site, type WorkspaceDoc } from '../domain/model.js';
import { planReview } from './plan-review.js';
import { ago, dateTime, timeLeft } from './format.js';
import { renderSitePage } from './site-view.js';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Limits } from '../../spec/index.js';
import type { Clock } from '../infra/clock.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { ActivityLog } from '../infra/store/activity.js';
import type { Store } from '../infra/store/store.js';

/** What the owner called a connection, or what it is when they did not name it. */
export function connectionName(c: Connection): string {
  if (c.name) return c.name;
  const kind = c.kind === 'oauth' ? 'AI client (OAuth)' : c.kind === 'paired' ? 'Command-line tool' : 'API token';
  return `${kind} ${c.tokenPrefix}…`;
}

/** The connections a website's Developers settings list: its own, and those reaching the whole workspace. */
function connectionsOf(ws: WorkspaceDoc, site: Site): Connection[] {
  return Object.values(ws.connections)
    .filter((c) => c.websiteId === site.websiteId || (c.reach === 'workspace' && (c.websiteId === null || Boolean(site.members[c.createdBy]))))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Plans of a website still to be decided or carried out, soonest expiry first. */
function openPlans(ws: WorkspaceDoc, websiteId: string, now: Date) {
  return Object.values(ws.plans)
    .filter((p) => p.websiteId === websiteId && (p.status === 'awaiting_approval' || p.status === 'approved') && p.expiresAt > now.toISOString())
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
}

const PLAN_STATUS: Record<string, string> = { approved: 'approved, waiting for your assistant to carry it out', declined: 'declined', redeemed: 'carried out', expired: 'expired' };

/** What the app's pages use of the server. */
export interface AppPorts {
  readonly store: Store;
  readonly clock: Clock;
  readonly sessions: Sessions;
  /** Sign-in's throttles (rules sign-in-throttled-per-account, sign-in-throttled-per-address). */
  readonly limiter: SlidingWindowLimiter;
  readonly limits: Limits;
  /** The Developers page's activity. */
  readonly activity: ActivityLog;
  /** The server's public base URL: where the session cookie is valid. */
  readonly baseUrl: string;
}

export function appRouter(ports: AppPorts): Router {
  const sessions = ports.sessions;
  const router = new Router({ prefix: '/app' });
  const signInThrottle = new SignInThrottle(ports.limiter, ports.limits.signIn);
  const owner = signedIn(sessions);
  // Redirects too, not only rendered pages (rule app-pages-frame-protection).
  router.use((ctx, next) => {
    appSecurityHeaders(ctx);
    return next();
  });

  router.get('/sign-in', (ctx) => {
    render(ctx, 'sign-in', { title: 'Sign in', next: safeNext(ctx.query.next as string | undefined) });
  });

  router.post('/sign-in', async (ctx) => {
    const body = await readForm(ctx);
    const email = (body.get('email') ?? '').trim().toLowerCase();
    // Refused before the password is even checked (rules sign-in-throttled-per-account, sign-in-throttled-per-address).
    const admitted = signInThrottle.admit(email, clientAddress(ctx));
    if ('retryAfterSeconds' in admitted) {
      const minutes = Math.ceil(admitted.retryAfterSeconds / 60);
      message(ctx, 'Too many attempts', `Too many failed sign-ins for this account or from this network. Try again in ${admitted.retryAfterSeconds < 60 ? `${admitted.retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? '' : 's'}`}.`, 429);
      ctx.set('Retry-After', String(admitted.retryAfterSeconds));
      return;
    }
    let failed = false;
    try {
      const wsId = await ports.store.lookupDirectory('email', email);
      const ws = wsId ? await ports.store.read(wsId) : undefined;
      const user = ws && Object.values(ws.users).find((u) => u.email === email);
      // Always one scrypt, known email or not (rule sign-in-unknown-email-same-cost).
      const passwordOk = await verifySignInPassword(body.get('password') ?? '', user?.passwordHash);
      if (!ws || !user || !passwordOk) {
        failed = true;
        return render(ctx, 'sign-in', { title: 'Sign in', next: safeNext(body.get('next')), error: 'Email or password is wrong.' }, { status: 401 });
      }
      sessions.start(ctx, user.userId, ws.id, ports.baseUrl);
      signInThrottle.succeeded(email, clientAddress(ctx));
    } finally {
      admitted.settle(failed);
    }
    ctx.redirect(safeNext(body.get('next')));
  });

  // Not CSRF-checked: it only ends the session, and the SameSite=Strict cookie is not sent by another site's form.
  router.post('/sign-out', async (ctx) => {
    sessions.end(ctx, ports.baseUrl);
    ctx.redirect('/app/sign-in');
  });

  // Every page reachable by links: the sites, each site's home, its pending plans and Developers settings.
  router.get('/', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const now = ports.clock.now(ws.id);
    const sites = Object.values(ws.sites)
      .filter((s) => s.members[session.userId])
      .map((s) => ({ websiteId: s.websiteId, name: s.name, role: s.members[session.userId], live: Boolean(s.published), pending: openPlans(ws, s.websiteId, now).filter((p) => p.status === 'awaiting_approval').length }));
    render(ctx, 'home', { title: 'Your sites', sites });
  });
  router.get('/sites', owner, (ctx) => ctx.redirect('/app/'));

  router.get('/sites/:websiteId', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    if (!site || !site.members[session.userId]) return message(ctx, 'Not found', 'No such website.', 404, [{ href: '/app/', text: 'Your sites' }]);
    const now = ports.clock.now(ws.id);
    const last = site.changes.at(-1);
    render(ctx, 'site', {
      title: site.name,
      crumbs: [{ href: '/app/', text: 'Your sites' }],
      site,
      live: site.published ? { when: ago(site.published.publishedAt, now), href: `/sites/${site.websiteId}/` } : null,
      pageCount: site.draft.pages.length,
      lastChange: last ? { when: ago(last.at, now), summary: last.summary } : null,
      previewHref: `/dashboard/sites/${site.websiteId}/editor`,
      isOwner: site.members[session.userId] === 'owner',
      plans: openPlans(ws, site.websiteId, now).map((p) => {
        const connection = entryOf(ws.connections, p.connectionId);
        return { planId: p.planId, status: p.status, action: planReview(p, site).action, connection: connection ? connectionName(connection) : 'a removed connection', left: timeLeft(p.expiresAt, now) };
      }),
    });
  });

  // Plan approval (rules plan-approval-signed-in-owner, plan-approver-owner-and-creator).
  router.get('/plans/:planId', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const plan = entryOf(ws.plans, ctx.params.planId);
    const now = ports.clock.now(ws.id);
    // Only for members of the plan's website, like the website's own page (rule plan-page-site-members-only).
    if (!plan || plan.expiresAt <= now.toISOString() || !mayViewPlan(ws, plan, session.userId)) {
      return message(ctx, 'Plan not available', 'This plan does not exist or has expired. Ask your assistant to prepare a fresh one.', 404, [{ href: '/app/', text: 'Your sites' }]);
    }
    const site = entryOf(ws.sites, plan.websiteId);
    const connection = entryOf(ws.connections, plan.connectionId);
    // The buttons show exactly when the decision would be taken (authorize.ts, rule plan-approver-owner-and-creator).
    const mayDecide = mayDecidePlan(ws, plan, session.userId);
    render(ctx, 'plan', {
      title: 'Review a plan',
      crumbs: site?.members[session.userId] ? [{ href: '/app/', text: 'Your sites' }, { href: `/app/sites/${site.websiteId}`, text: site.name }] : [{ href: '/app/', text: 'Your sites' }],
      plan,
      review: planReview(plan, site),
      siteName: site?.name ?? 'a removed website',
      connectionName: connection ? connectionName(connection) : 'a removed connection',
      expiresAt: dateTime(plan.expiresAt),
      left: timeLeft(plan.expiresAt, now),
      statusText: PLAN_STATUS[plan.status] ?? plan.status,
      previewHref: plan.kind === 'publish' && site?.members[session.userId] ? `/dashboard/sites/${site.websiteId}/editor` : null,
      mayDecide,
    });
  });

  router.post('/plans/:planId/decision', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    const decision = formOf(ctx).get('decision') === 'approve' ? 'approve' : 'decline';
    try {
      const { plan, site } = await ports.store.transact(session.workspaceId, (ws) => {
        const decided = decidePlan(ws, ctx.params.planId!, session.userId, decision, ports.clock.now(ws.id));
        return { plan: decided, site: entryOf(ws.sites, decided.websiteId) };
      });
      render(ctx, 'decided', {
        title: decision === 'approve' ? 'Plan approved' : 'Plan declined',
        action: planReview(plan, site).action,
        next: decision === 'approve' ? 'Your assistant can now carry it out (confirm_pending_action); nothing happens until it does.' : 'Nothing will happen.',
        websiteId: plan.websiteId,
        siteName: site?.name ?? 'the website',
        liveHref: decision === 'approve' && (plan.kind === 'publish' || site?.published) ? `/sites/${plan.websiteId}/` : null,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message(ctx, 'Not possible', error.message, HTTP_STATUS[error.code]);
    }
  });

  // Developers settings of one website (§1.3, §5.2, §2.7 activity: 90 days, newest first, by connection). The
  // activity is read a page at a time from the newest (decision activity-read-newest-first): what the page costs
  // does not grow with the log, so the owner can always reach it to revoke a flooding token.
  router.get('/sites/:websiteId/developers', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    if (!site || !site.members[session.userId]) return message(ctx, 'Not found', 'No such website.', 404, [{ href: '/app/', text: 'Your sites' }]);
    // Owners manage connections (§1.3): an editor or a viewer sees neither the connections nor their activity
    // (rule developers-settings-owners-only).
    if (site.members[session.userId] !== 'owner') {
      return message(ctx, 'Owners only', 'Only an owner of this website manages its connections and reads their activity.', 403, [{ href: `/app/sites/${site.websiteId}`, text: site.name }]);
    }
    const now = ports.clock.now(ws.id);
    const isOwner = true;
    const connections = connectionsOf(ws, site);
    const names = new Map(connections.map((c) => [c.connectionId, connectionName(c)]));
    const bounds = ports.limits.activityLog;
    const filter = typeof ctx.query.connection === 'string' && names.has(ctx.query.connection) ? ctx.query.connection : '';
    const before = typeof ctx.query.before === 'string' ? ctx.query.before : null;
    const { entries: shown, older } = await ports.activity.readPage(ws.id, now, bounds, { connectionIds: new Set(filter ? [filter] : names.keys()), before });
    const lastUsed = await ports.activity.lastUsed(ws.id, now, [...names.keys()], bounds);
    const pageHref = (cursor: string | null) =>
      `/app/sites/${site.websiteId}/developers?${new URLSearchParams({ ...(filter ? { connection: filter } : {}), ...(cursor ? { before: cursor } : {}) })}#activity`;
    render(ctx, 'developers', {
      title: 'Developers settings',
      crumbs: [{ href: '/app/', text: 'Your sites' }, { href: `/app/sites/${site.websiteId}`, text: site.name }],
      site,
      isOwner,
      connections: connections.map((c) => {
        const v = connectionView(c, now);
        const used = lastUsed.get(c.connectionId);
        const usedText = used ? ago(used, now) : used === null ? 'never' : 'not among the latest calls';
        let mayRevoke = false;
        try {
          mayRevoke = !c.revokedAt && Boolean(authorizeRevoke(ws, session.userId, site.websiteId, c.connectionId));
        } catch {
          mayRevoke = false;
        }
        return { ...v, name: names.get(c.connectionId), created: ago(c.createdAt, now), lastUsed: usedText, mayRevoke };
      }),
      scopes: ALL_SCOPES.map((s) => ({ name: s, grants: SCOPE_GRANTS[s], checked: s === 'site:read' || s === 'content:write' })),
      filter,
      activity: shown.map((e) => ({ ...e, when: dateTime(e.at), connection: names.get(e.connectionId) })),
      pager: { perPage: bounds.pageEntries, newest: before ? pageHref(null) : null, older: older ? pageHref(older) : null },
    });
  });

  router.post('/sites/:websiteId/developers/connections', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    const body = formOf(ctx);
    try {
      const { connection, token } = await ports.store.transact(session.workspaceId, (ws, tx) => {
        const created = createConnection(
          ws,
          {
            userId: session.userId,
            websiteId: ctx.params.websiteId!,
            reach: body.get('reach') === 'workspace' ? 'workspace' : 'website',
            ...(body.get('preset') === 'full' ? { preset: 'full' } : { scopes: body.getAll('scope') }),
          },
          ports.clock.now(ws.id),
        );
        const name = (body.get('name') ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
        if (name) created.connection.name = name;
        indexConnection(tx, created.connection, session.workspaceId);
        return created;
      });
      session.shownOnce = { connectionId: connection.connectionId, token };
      ctx.status = 303;
      ctx.redirect(`/app/sites/${encodeURIComponent(ctx.params.websiteId!)}/developers/connections/${encodeURIComponent(connection.connectionId)}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message(ctx, 'Not created', error.message, HTTP_STATUS[error.code]);
    }
  });

  // The token, shown once: the page the creation redirects to takes it out of the session (rule token-shown-once).
  router.get('/sites/:websiteId/developers/connections/:connectionId', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    const connection = entryOf(ws.connections, ctx.params.connectionId);
    if (!site || site.members[session.userId] !== 'owner' || !connection || connection.createdBy !== session.userId) return message(ctx, 'Not found', 'No such connection.', 404);
    const shown = session.shownOnce?.connectionId === connection.connectionId ? session.shownOnce.token : undefined;
    delete session.shownOnce;
    const back = [{ href: `/app/sites/${site.websiteId}/developers`, text: 'Back to Developers' }];
    if (!shown) {
      return message(ctx, 'Token already shown', `The token of this connection was shown once and only its prefix ${connection.tokenPrefix}… is kept. If it was lost, revoke the connection and create a new one.`, 200, back);
    }
    render(ctx, 'token', { title: 'Connection created', crumbs: [{ href: '/app/', text: 'Your sites' }, { href: `/app/sites/${site.websiteId}`, text: site.name }, { href: `/app/sites/${site.websiteId}/developers`, text: 'Developers settings' }], site, connection, token: shown }, { scriptNonce: randomBytes(16).toString('base64') });
  });

  // Revoking asks first (a GET page with the one button that posts).
  router.get('/sites/:websiteId/developers/connections/:connectionId/revoke', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    let connection: Connection;
    try {
      connection = authorizeRevoke(ws, session.userId, ctx.params.websiteId, ctx.params.connectionId ?? null);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return message(ctx, 'Not possible', error.message, HTTP_STATUS[error.code]);
    }
    const site = ws.sites[ctx.params.websiteId!]!;
    if (connection.revokedAt) return message(ctx, 'Already revoked', `${connectionName(connection)} was revoked ${ago(connection.revokedAt, ports.clock.now(ws.id))}.`, 200, [{ href: `/app/sites/${site.websiteId}/developers`, text: 'Back to Developers' }]);
    render(ctx, 'revoke', { title: 'Revoke a connection', crumbs: [{ href: '/app/', text: 'Your sites' }, { href: `/app/sites/${site.websiteId}`, text: site.name }, { href: `/app/sites/${site.websiteId}/developers`, text: 'Developers settings' }], site, connection, name: connectionName(connection) });
  });

  router.post('/sites/:websiteId/developers/revoke', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    try {
      await ports.store.transact(session.workspaceId, (ws) => {
        // Against the connection's own website, not only the one in the address (authorizeRevoke).
        const connection = authorizeRevoke(ws, session.userId, ctx.params.websiteId, formOf(ctx).get('connectionId'));
        connection.revokedAt ??= ports.clock.now(ws.id).toISOString();
        collectExpiredPlans(ws, ports.clock.now(ws.id));
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return message(ctx, 'Not possible', error.message, HTTP_STATUS[error.code]);
    }
    ctx.redirect(`/app/sites/${encodeURIComponent(ctx.params.websiteId!)}/developers`);
  });

  return router;
}

/**
 * The owner's read-only draft preview at the editorUrl tools return (/dashboard/sites/<id>/editor): the draft
 * rendered as the live site would be, for any member of the website. Editing stays with tools. It is a page of
 * the site, not of the app: no script, no form, images from this origin or https.
 */
export function editorRouter(ports: Pick<AppPorts, 'store' | 'sessions'>): Router {
  const router = new Router();
  const owner = signedIn(ports.sessions);
  const headers = (ctx: Context, next: () => Promise<unknown>) => {
    appSecurityHeaders(ctx); // the redirect to sign-in too (rule app-pages-frame-protection)
    return next();
  };
  router.get('/', headers, (ctx) => ctx.redirect('/app/'));
  router.get('/dashboard', headers, (ctx) => ctx.redirect('/app/'));
  const preview = async (ctx: Context) => {
    const session = sessionOf(ctx);
    const ws = (await ports.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    if (!site || !site.members[session.userId]) return message(ctx, 'Not found', 'No such website.', 404, [{ href: '/app/', text: 'Your sites' }]);
    const slug = (ctx.params.slug as string | undefined) ?? 'home';
    const page = site.draft.pages.find((p) => p.slug === slug && !p.hidden) ?? (ctx.params.slug ? undefined : site.draft.pages.find((p) => !p.hidden));
    if (!page) return message(ctx, 'Not found', 'The draft has no such page.', 404, [{ href: `/app/sites/${site.websiteId}`, text: site.name }]);
    ctx.type = 'text/html';
    ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderSitePage(site, site.draft, page, {
      basePath: `/dashboard/sites/${encodeURIComponent(site.websiteId)}/editor/`,
      searchVisible: false,
      preview: { backHref: `/app/sites/${site.websiteId}`, note: `Draft preview of ${site.name} (revision ${site.siteRevision}), read-only. Visitors do not see this until it is published.` },
    });
  };
  router.get('/dashboard/sites/:websiteId/editor', headers, owner, preview);
  router.get('/dashboard/sites/:websiteId/editor/:slug', headers, owner, preview);
  return router;
}
