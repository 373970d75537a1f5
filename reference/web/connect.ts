// The owner's approval screen of device-code pairing, /dashboard/connect (§5.3–5.5): a signed-in person enters the
// user code a tool shows, sees every requested scope and approves or denies. The endpoints a tool calls are
// reference/api/pairing.ts.
import Router from '@koa/router';
import type { Context } from 'koa';
import { approveAs, type PairingPorts } from '../api/pairing.js';
import type { Pairing } from '../domain/pairing.js';
import { DomainError } from '../domain/errors.js';
import { HTTP_STATUS } from '../api/errors.js';
import { clientAddress } from '../api/client-address.js';
import { SCOPE_GRANTS } from '../domain/scopes.js';
import { appSecurityHeaders, message, render } from './render.js';
import { checkedForm, formOf, sessionOf, signedIn } from './session.js';

export function connectRouter(ports: PairingPorts): Router {
  const router = new Router();

  // A user code as the signed-in person's workspace sees it (rules pairing-bound-to-first-workspace,
  // pairing-code-guesses-throttled): past the misses one person or one address may make, refused before the code
  // is looked up, so a guess cannot find, and so bind, a pairing. A miss (unknown, expired or bound elsewhere) is
  // counted in the same tick as the check, so concurrent guesses cannot outrun the count.
  const THROTTLED = Symbol('throttled');
  const lookUp = (ctx: Context, session: { userId: string; workspaceId: string }, code: string): Pairing | undefined | typeof THROTTLED => {
    const { perUser, perAddress } = ports.limits.pairCode;
    const keys = [
      { key: `pair-code:user:${session.userId}`, window: perUser },
      { key: `pair-code:address:${clientAddress(ctx)}`, window: perAddress },
    ];
    const nowMs = Date.now();
    // A key of limit 0 last makes take() record nothing: it only tells whether an earlier key is over its limit.
    const refused = ports.limiter.take([...keys, { key: 'pair-code:peek-stop', window: { limit: 0, windowSeconds: 1 } }], nowMs);
    if (refused && refused.refusedKey !== 'pair-code:peek-stop') {
      message(ctx, 'Too many codes', `Too many codes that match no pairing. Try again in ${Math.ceil(refused.retryAfterSeconds / 60)} minute(s).`, 429);
      ctx.set('Retry-After', String(refused.retryAfterSeconds));
      return THROTTLED;
    }
    let pairing: Pairing | undefined;
    try {
      pairing = ports.pairings.findFor(code, session.workspaceId, nowMs);
    } catch (error) {
      // This company holds its most pairings awaiting approval (rule pairings-capacity-per-owner).
      if (!(error instanceof DomainError)) throw error;
      message(ctx, 'Too many pairings', error.message, HTTP_STATUS[error.code]);
      return THROTTLED;
    }
    if (!pairing) ports.limiter.take(keys, nowMs);
    return pairing;
  };

  // The owner's approval screen (rules dashboard-connect-lists-scopes, pairing-grant-only-narrower).
  const pageHeaders = (ctx: Context, next: () => Promise<unknown>) => {
    appSecurityHeaders(ctx); // the redirect to sign-in too (rule app-pages-frame-protection)
    return next();
  };
  router.get('/dashboard/connect', pageHeaders, signedIn(ports.sessions), async (ctx) => {
    const session = sessionOf(ctx);
    const code = String(ctx.query.code ?? '');
    const pairing = code ? lookUp(ctx, session, code) : undefined;
    if (pairing === THROTTLED) return;
    if (!pairing || pairing.status !== 'pending') {
      return render(ctx, 'connect', { title: 'Connect a tool', code, pairing: null }, { status: code ? 404 : 200 });
    }
    const ws = (await ports.store.read(session.workspaceId))!;
    const owned = Object.values(ws.sites).filter((s) => s.members[session.userId] === 'owner');
    const companyWide = Object.keys(ws.sites).length === 0 && ws.ownerUserId === session.userId && !pairing.admin && !pairing.readOnly;
    render(ctx, 'connect', {
      title: 'Connect a tool',
      code,
      pairing,
      owned,
      companyWide,
      scopes: pairing.requested.map((s) => ({ name: s, grants: SCOPE_GRANTS[s] })),
    });
  });

  router.post('/dashboard/connect', pageHeaders, signedIn(ports.sessions), checkedForm, async (ctx) => {
    const session = sessionOf(ctx);
    const body = formOf(ctx);
    const pairing = lookUp(ctx, session, body.get('code') ?? '');
    if (pairing === THROTTLED) return;
    if (!pairing) return message(ctx, 'Connect a tool', 'That code is unknown, used or expired.', 404);
    if (body.get('decision') !== 'approve') {
      ports.pairings.deny(pairing);
      return message(ctx, 'Denied', 'The tool gets nothing.');
    }
    try {
      await approveAs(ports, pairing, { userId: session.userId, websiteId: body.get('websiteId') || null, scopes: body.getAll('scope') });
      message(ctx, 'Approved', 'Return to your terminal: the tool receives its token on its next poll.');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message(ctx, 'Not approved', error.message, HTTP_STATUS[error.code]);
    }
  });

  return router;
}
