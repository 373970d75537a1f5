// Admission to dynamic client registration (§5.1 enables it for anyone, with no account): counted per client
// address with the server's one rate limiter (rule oauth-registration-throttled-per-address), and the body's size
// bounded by its Content-Length (rule oauth-registration-metadata-capped), both before oidc-provider reads the body,
// so a refused registration costs no parse and stores nothing. Answers use OAuth's JSON error form, as the
// provider's own answers on this endpoint do (RFC 7591 §3.2.2).
import type { Context, Middleware } from 'koa';
import type { Limits } from '../../spec/index.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import { clientAddress } from '../api/client-address.js';

/** The registration endpoint inside the provider's app (its `routes.registration`, mounted under /oidc). */
export const REGISTRATION_PATH = '/reg';

function refuse(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error, error_description: description };
}

/** The authorization endpoint inside the provider's app (its default `routes.authorization`, mounted under /oidc). */
export const AUTHORIZATION_PATH = '/auth';

/**
 * Admission to the authorization endpoint (rule oauth-authorization-requests-bounded): oidc-provider writes a sign-in
 * in flight (an Interaction record, kept 10 minutes) for every request naming a known client, and asks for no account
 * first. Counted per client address, and refused while the server holds maxInteractions of them, before the provider
 * reads anything, so a flood of links costs neither disk nor memory beyond that.
 */
export function authorizationAdmission(limiter: SlidingWindowLimiter, limits: Limits['oauthAuthorization'], liveInteractions: () => Promise<number>, now: () => number = Date.now): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== AUTHORIZATION_PATH && !ctx.path.startsWith(`${AUTHORIZATION_PATH}/`)) return next();
    const refused = limiter.take([{ key: `oauth-authorization:address:${clientAddress(ctx)}`, window: limits.perAddress }], now());
    if (refused) {
      ctx.set('retry-after', String(refused.retryAfterSeconds));
      return refuse(ctx, 429, 'rate_limited', `Too many authorization requests from this address: ${limits.perAddress.limit} per ${limits.perAddress.windowSeconds} seconds. Retry after ${refused.retryAfterSeconds} seconds.`);
    }
    if ((await liveInteractions()) >= limits.maxInteractions) {
      ctx.set('retry-after', '60');
      return refuse(ctx, 503, 'temporarily_unavailable', 'Too many sign-ins are in progress right now. Retry in a minute.');
    }
    return next();
  };
}

export function registrationAdmission(limiter: SlidingWindowLimiter, limits: Limits['oauthRegistration'], now: () => number = Date.now): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== REGISTRATION_PATH) return next();
    const { perAddress, maxMetadataBytes } = limits;
    const refused = limiter.take([{ key: `oauth-registration:address:${clientAddress(ctx)}`, window: perAddress }], now());
    if (refused) {
      ctx.set('retry-after', String(refused.retryAfterSeconds));
      return refuse(ctx, 429, 'rate_limited', `Too many client registrations from this address: ${perAddress.limit} per ${perAddress.windowSeconds} seconds. Retry after ${refused.retryAfterSeconds} seconds.`);
    }
    const announced = ctx.get('content-length');
    if (!/^\d+$/.test(announced)) return refuse(ctx, 411, 'invalid_request', 'A client registration must announce its size in Content-Length.');
    if (Number(announced) > maxMetadataBytes) return refuse(ctx, 413, 'invalid_client_metadata', `Client metadata may be at most ${maxMetadataBytes} bytes.`);
    return next();
  };
}
