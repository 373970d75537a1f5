// The owner's app pages of the reference server: sign-in, plan approval (§2.6: approval only by a signed-in
// owner, never over MCP) and Developers settings (§1.3, §5.2: create, list and revoke connections, read
// their activity). Forms post urlencoded bodies with a CSRF token bound to the session.
import Router from '@koa/router';
import type { Context } from 'koa';
import { timingSafeEqual } from 'node:crypto';
import type { Runtime } from '../../runtime.js';
import { readRawBody } from '../body.js';
import { verifySignInPassword } from '../../domain/passwords.js';
import { decidePlan, collectExpiredPlans } from '../../domain/plans.js';
import { connectionView, createConnection } from '../../domain/connections.js';
import { indexConnection } from '../../domain/authenticate.js';
import { ALL_SCOPES, SCOPE_GRANTS } from '../../domain/scopes.js';
import { DomainError } from '../../domain/errors.js';
import { HTTP_STATUS } from '../errors.js';
import { authorizeRevoke } from '../../domain/authorize.js';
import { appSecurityHeaders, esc, page } from './html.js';
import type { AppSession } from './sessions.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { clientAddress } from './client-address.js';
import { entryOf } from '../../domain/model.js';

export async function form(ctx: Context): Promise<URLSearchParams> {
  return new URLSearchParams((await readRawBody(ctx.req, 64 * 1024)).toString('utf8'));
}

export function csrfOk(session: AppSession, given: string | null): boolean {
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(given ?? '');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function appRouter(rt: Runtime): Router {
  const sessions = rt.sessions;
  const router = new Router({ prefix: '/app' });
  const signInThrottle = new SignInThrottle(rt.limiter, rt.limits.signIn);
  // Redirects too, not only rendered pages (rule app-pages-frame-protection).
  router.use((ctx, next) => {
    appSecurityHeaders(ctx);
    return next();
  });

  const requireSession = (ctx: Context): AppSession | undefined => {
    const session = sessions.current(ctx);
    if (!session) ctx.redirect(`/app/sign-in?next=${encodeURIComponent(ctx.originalUrl)}`);
    return session;
  };
  const safeNext = (next: string | null) => (next && /^\/(app|dashboard|oidc-interaction)\//.test(next) && !next.includes('//') ? next : '/app/');

  router.get('/sign-in', (ctx) => {
    const next = safeNext(ctx.query.next as string | null);
    page(ctx, 'Sign in', `<form method="post" action="/app/sign-in"><input type="hidden" name="next" value="${esc(next)}">
<p><label>Email <input name="email" type="email" autocomplete="username" required></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Sign in</button></p></form>`);
  });

  router.post('/sign-in', async (ctx) => {
    const body = await form(ctx);
    const email = (body.get('email') ?? '').trim().toLowerCase();
    // Refused before the password is even checked (rules sign-in-throttled-per-account, sign-in-throttled-per-address).
    const admitted = signInThrottle.admit(email, clientAddress(ctx));
    if ('retryAfterSeconds' in admitted) {
      const minutes = Math.ceil(admitted.retryAfterSeconds / 60);
      page(ctx, 'Too many attempts', `<p>Too many failed sign-ins for this account or from this network. Try again in ${admitted.retryAfterSeconds < 60 ? `${admitted.retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? '' : 's'}`}.</p>`, 429);
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
        return page(ctx, 'Sign in', '<p>Email or password is wrong.</p><p><a href="/app/sign-in">Try again</a></p>', 401);
      }
      sessions.start(ctx, user.userId, ws.id, rt.baseUrl);
    } finally {
      admitted.settle(failed);
    }
    ctx.redirect(safeNext(body.get('next')));
  });

  router.post('/sign-out', async (ctx) => {
    sessions.end(ctx, rt.baseUrl);
    ctx.redirect('/app/sign-in');
  });

  router.get('/', (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    page(ctx, 'Signed in', `<p class="muted">Open an approval link from your assistant, or a site's Developers settings at <code>/app/sites/&lt;websiteId&gt;/developers</code>.</p>
<form method="post" action="/app/sign-out"><button>Sign out</button></form>`);
  });

  // Plan approval (rules plan-approval-signed-in-owner, plan-approver-owner-and-creator).
  router.get('/plans/:planId', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const ws = (await rt.store.read(session.workspaceId))!;
    const plan = entryOf(ws.plans, ctx.params.planId);
    const now = rt.clock.now(ws.id);
    if (!plan || plan.expiresAt <= now.toISOString()) {
      return page(ctx, 'Plan not available', '<p>This plan does not exist or has expired. Ask your assistant to prepare a fresh one.</p>', 404);
    }
    const site = entryOf(ws.sites, plan.websiteId);
    const connection = entryOf(ws.connections, plan.connectionId);
    const mayDecide = site?.members[session.userId] === 'owner' && connection?.createdBy === session.userId;
    const controls =
      plan.status !== 'awaiting_approval'
        ? `<p>Status: <strong>${esc(plan.status.replace('_', ' '))}</strong></p>`
        : mayDecide
          ? `<form method="post" action="/app/plans/${esc(plan.planId)}/decision"><input type="hidden" name="csrf" value="${esc(session.csrf)}">
<button name="decision" value="approve">Approve</button><button name="decision" value="decline">Decline</button></form>`
          : '<p>Only the owner of this website who created the connection can approve this plan.</p>';
    page(ctx, 'Review a plan', `<div class="card"><p><strong>${esc(plan.summary)}</strong></p>
<p class="muted">Website: ${esc(site?.name ?? plan.websiteId)} · kind: ${esc(plan.kind)} · expires ${esc(plan.expiresAt)}</p>
${plan.pinned.siteRevision !== undefined ? `<p class="muted">Reviewed draft revision: ${esc(plan.pinned.siteRevision)}</p>` : ''}
${controls}</div>`);
  });

  router.post('/plans/:planId/decision', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const body = await form(ctx);
    if (!csrfOk(session, body.get('csrf'))) return page(ctx, 'Refused', '<p>The form expired; reload the page.</p>', 403);
    const decision = body.get('decision') === 'approve' ? 'approve' : 'decline';
    try {
      const plan = await rt.store.transact(session.workspaceId, (ws) => decidePlan(ws, ctx.params.planId!, session.userId, decision, rt.clock.now(ws.id)));
      page(ctx, decision === 'approve' ? 'Plan approved' : 'Plan declined', `<p>${esc(plan.summary)}</p><p>${decision === 'approve' ? 'Your assistant can now carry it out with confirm_pending_action.' : 'Nothing will happen.'}</p>`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      page(ctx, 'Not possible', `<p>${esc(error.message)}</p>`, HTTP_STATUS[error.code]);
    }
  });

  // Developers settings of one website (§1.3, §5.2, §2.7 activity).
  router.get('/sites/:websiteId/developers', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const ws = (await rt.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    if (!site || !site.members[session.userId]) return page(ctx, 'Not found', '<p>No such website.</p>', 404);
    const now = rt.clock.now(ws.id);
    const isOwner = site.members[session.userId] === 'owner';
    const connections = Object.values(ws.connections).filter((c) => c.websiteId === site.websiteId || c.reach === 'workspace');
    const entries = (await rt.activity.read(ws.id, now)).filter((e) => connections.some((c) => c.connectionId === e.connectionId)).slice(-50).reverse();
    const rows = connections
      .map((c) => {
        const v = connectionView(c, now);
        return `<tr><td><code>${esc(v.tokenPrefix)}…</code></td><td>${esc(v.reach)}</td><td>${esc(v.presetLabel)}</td><td>${esc(v.scopes.join(', '))}</td><td>${v.revokedAt ? 'revoked' : isOwner ? `<form method="post" action="/app/sites/${esc(site.websiteId)}/developers/revoke"><input type="hidden" name="csrf" value="${esc(session.csrf)}"><input type="hidden" name="connectionId" value="${esc(v.connectionId)}"><button>Revoke</button></form>` : 'active'}</td></tr>`;
      })
      .join('');
    const ticks = ALL_SCOPES.map((s) => `<label><input type="checkbox" name="scope" value="${esc(s)}"${s === 'site:read' || s === 'content:write' ? ' checked' : ''}${s === 'site:read' ? ' disabled' : ''}> <code>${esc(s)}</code> — ${esc(SCOPE_GRANTS[s])}</label><br>`).join('');
    const create = isOwner
      ? `<div class="card"><h2>New connection</h2><form method="post" action="/app/sites/${esc(site.websiteId)}/developers/connections"><input type="hidden" name="csrf" value="${esc(session.csrf)}">
<p><label><input type="radio" name="reach" value="website" checked> This website</label> <label><input type="radio" name="reach" value="workspace"> Whole workspace</label></p>
<p>${ticks}</p><p><label><input type="checkbox" name="preset" value="full"> Full access (every scope)</label></p><button>Create and show token</button></form></div>`
      : '<p class="muted">Only an owner of this website can create connections.</p>';
    const activity = entries.map((e) => `<tr><td>${esc(e.at)}</td><td>${esc(e.name)}</td><td>${esc(e.outcome)}${e.code ? ` (${esc(e.code)})` : ''}</td><td>${esc(e.summary ?? '')}</td></tr>`).join('');
    page(ctx, `Developers · ${site.name}`, `<table><tr><th>Token</th><th>Reach</th><th>Preset</th><th>Scopes</th><th></th></tr>${rows}</table>${create}
<h2>Activity (90 days)</h2><table><tr><th>When</th><th>Call</th><th>Outcome</th><th>Summary</th></tr>${activity}</table>`);
  });

  router.post('/sites/:websiteId/developers/connections', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const body = await form(ctx);
    if (!csrfOk(session, body.get('csrf'))) return page(ctx, 'Refused', '<p>The form expired; reload the page.</p>', 403);
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
      page(ctx, 'Not created', `<p>${esc(error.message)}</p>`, HTTP_STATUS[error.code]);
    }
  });

  // The token, shown once: the page the creation redirects to takes it out of the session (rule token-shown-once).
  router.get('/sites/:websiteId/developers/connections/:connectionId', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const ws = (await rt.store.read(session.workspaceId))!;
    const site = entryOf(ws.sites, ctx.params.websiteId);
    const connection = entryOf(ws.connections, ctx.params.connectionId);
    if (!site || site.members[session.userId] !== 'owner' || !connection || connection.createdBy !== session.userId) return page(ctx, 'Not found', '<p>No such connection.</p>', 404);
    const shown = session.shownOnce?.connectionId === connection.connectionId ? session.shownOnce.token : undefined;
    delete session.shownOnce;
    const back = `<p><a href="/app/sites/${esc(site.websiteId)}/developers">Back to Developers</a></p>`;
    if (!shown) {
      return page(ctx, 'Token already shown', `<p>The token of this connection was shown once and only its prefix <code>${esc(connection.tokenPrefix)}…</code> is kept. If it was lost, revoke the connection and create a new one.</p>${back}`);
    }
    page(ctx, 'Connection created', `<div class="card"><p>Copy this token now. It is shown once; only its hash is kept.</p><p><code id="token">${esc(shown)}</code></p>
<p class="muted">Scopes: ${esc(connection.scopes.join(', '))}</p></div>${back}`);
  });

  router.post('/sites/:websiteId/developers/revoke', async (ctx) => {
    const session = requireSession(ctx);
    if (!session) return;
    const body = await form(ctx);
    if (!csrfOk(session, body.get('csrf'))) return page(ctx, 'Refused', '<p>The form expired; reload the page.</p>', 403);
    try {
      await rt.store.transact(session.workspaceId, (ws) => {
        // Against the connection's own website, not only the one in the address (authorizeRevoke).
        const connection = authorizeRevoke(ws, session.userId, ctx.params.websiteId, body.get('connectionId'));
        connection.revokedAt ??= rt.clock.now(ws.id).toISOString();
        collectExpiredPlans(ws, rt.clock.now(ws.id));
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return page(ctx, 'Not possible', `<p>${esc(error.message)}</p>`, HTTP_STATUS[error.code]);
    }
    ctx.redirect(`/app/sites/${encodeURIComponent(ctx.params.websiteId!)}/developers`);
  });

  return router;
}
