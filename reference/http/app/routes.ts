// The owner's app pages of the reference server: sign-in, plan approval (§2.6: approval only by a signed-in
// owner, never over MCP) and Developers settings (§1.3, §5.2: create, list and revoke connections, read
// their activity). Pages are templates of reference/web/views; session and CSRF are the middleware of
// reference/web/session.ts.
import Router from '@koa/router';
import type { Runtime } from '../../runtime.js';
import { verifySignInPassword } from '../../domain/passwords.js';
import { decidePlan, collectExpiredPlans } from '../../domain/plans.js';
import { connectionView, createConnection } from '../../domain/connections.js';
import { indexConnection } from '../../domain/authenticate.js';
import { ALL_SCOPES, SCOPE_GRANTS } from '../../domain/scopes.js';
import { DomainError } from '../../domain/errors.js';
import { HTTP_STATUS } from '../errors.js';
import { authorizeRevoke } from '../../domain/authorize.js';
import { appSecurityHeaders, message, render } from '../../web/render.js';
import { checkedForm, formOf, readForm, safeNext, sessionOf, signedIn } from '../../web/session.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { clientAddress } from './client-address.js';
import { entryOf } from '../../domain/model.js';

export function appRouter(rt: Runtime): Router {
  const sessions = rt.sessions;
  const router = new Router({ prefix: '/app' });
  const signInThrottle = new SignInThrottle(rt.limiter, rt.limits.signIn);
  const owner = signedIn(rt);
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
      const wsId = await rt.store.lookupDirectory('email', email);
      const ws = wsId ? await rt.store.read(wsId) : undefined;
      const user = ws && Object.values(ws.users).find((u) => u.email === email);
      // Always one scrypt, known email or not (rule sign-in-unknown-email-same-cost).
      const passwordOk = await verifySignInPassword(body.get('password') ?? '', user?.passwordHash);
      if (!ws || !user || !passwordOk) {
        failed = true;
        return render(ctx, 'sign-in', { title: 'Sign in', next: safeNext(body.get('next')), error: 'Email or password is wrong.' }, { status: 401 });
      }
      sessions.start(ctx, user.userId, ws.id, rt.baseUrl);
    } finally {
      admitted.settle(failed);
    }
    ctx.redirect(safeNext(body.get('next')));
  });

  // Not CSRF-checked: it only ends the session, and the SameSite=Strict cookie is not sent by another site's form.
  router.post('/sign-out', async (ctx) => {
    sessions.end(ctx, rt.baseUrl);
    ctx.redirect('/app/sign-in');
  });

  router.get('/', owner, (ctx) => {
    render(ctx, 'home', { title: 'Signed in' });
  });

  // Plan approval (rules plan-approval-signed-in-owner, plan-approver-owner-and-creator).
  router.get('/plans/:planId', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await rt.store.read(session.workspaceId))!;
    const plan = entryOf(ws.plans, ctx.params.planId);
    const now = rt.clock.now(ws.id);
    if (!plan || plan.expiresAt <= now.toISOString()) {
      return message(ctx, 'Plan not available', 'This plan does not exist or has expired. Ask your assistant to prepare a fresh one.', 404);
    }
    const site = entryOf(ws.sites, plan.websiteId);
    const connection = entryOf(ws.connections, plan.connectionId);
    const mayDecide = site?.members[session.userId] === 'owner' && connection?.createdBy === session.userId;
    render(ctx, 'plan', { title: 'Review a plan', plan, siteName: site?.name ?? plan.websiteId, mayDecide });
  });

  router.post('/plans/:planId/decision', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    const decision = formOf(ctx).get('decision') === 'approve' ? 'approve' : 'decline';
    try {
      const plan = await rt.store.transact(session.workspaceId, (ws) => decidePlan(ws, ctx.params.planId!, session.userId, decision, rt.clock.now(ws.id)));
      message(ctx, decision === 'approve' ? 'Plan approved' : 'Plan declined', [plan.summary, decision === 'approve' ? 'Your assistant can now carry it out with confirm_pending_action.' : 'Nothing will happen.']);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message(ctx, 'Not possible', error.message, HTTP_STATUS[error.code]);
    }
  });

  // Developers settings of one website (§1.3, §5.2, §2.7 activity).
  router.get('/sites/:websiteId/developers', owner, async (ctx) => {
    const session = sessionOf(ctx);
    const ws = (await rt.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    if (!site || !site.members[session.userId]) return message(ctx, 'Not found', 'No such website.', 404);
    const now = rt.clock.now(ws.id);
    const isOwner = site.members[session.userId] === 'owner';
    const connections = Object.values(ws.connections).filter((c) => c.websiteId === site.websiteId || c.reach === 'workspace');
    const activity = (await rt.activity.read(ws.id, now)).filter((e) => connections.some((c) => c.connectionId === e.connectionId)).slice(-50).reverse();
    render(ctx, 'developers', {
      title: `Developers · ${site.name}`,
      site,
      isOwner,
      connections: connections.map((c) => connectionView(c, now)),
      scopes: ALL_SCOPES.map((s) => ({ name: s, grants: SCOPE_GRANTS[s], checked: s === 'site:read' || s === 'content:write' })),
      activity,
    });
  });

  router.post('/sites/:websiteId/developers/connections', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    const body = formOf(ctx);
    try {
      const { connection, token } = await rt.store.transact(session.workspaceId, (ws, tx) => {
        const created = createConnection(
          ws,
          {
            userId: session.userId,
            websiteId: ctx.params.websiteId!,
            reach: body.get('reach') === 'workspace' ? 'workspace' : 'website',
            ...(body.get('preset') === 'full' ? { preset: 'full' } : { scopes: body.getAll('scope') }),
          },
          rt.clock.now(ws.id),
        );
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
    const ws = (await rt.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    const connection = entryOf(ws.connections, ctx.params.connectionId);
    if (!site || site.members[session.userId] !== 'owner' || !connection || connection.createdBy !== session.userId) return message(ctx, 'Not found', 'No such connection.', 404);
    const shown = session.shownOnce?.connectionId === connection.connectionId ? session.shownOnce.token : undefined;
    delete session.shownOnce;
    const back = [{ href: `/app/sites/${site.websiteId}/developers`, text: 'Back to Developers' }];
    if (!shown) {
      return message(ctx, 'Token already shown', `The token of this connection was shown once and only its prefix ${connection.tokenPrefix}… is kept. If it was lost, revoke the connection and create a new one.`, 200, back);
    }
    render(ctx, 'token', { title: 'Connection created', site, connection, token: shown });
  });

  router.post('/sites/:websiteId/developers/revoke', owner, checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    try {
      await rt.store.transact(session.workspaceId, (ws) => {
        // Against the connection's own website, not only the one in the address (authorizeRevoke).
        const connection = authorizeRevoke(ws, session.userId, ctx.params.websiteId, formOf(ctx).get('connectionId'));
        connection.revokedAt ??= rt.clock.now(ws.id).toISOString();
        collectExpiredPlans(ws, rt.clock.now(ws.id));
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return message(ctx, 'Not possible', error.message, HTTP_STATUS[error.code]);
    }
    ctx.redirect(`/app/sites/${encodeURIComponent(ctx.params.websiteId!)}/developers`);
  });

  return router;
}
