// Admission to the identity provider's endpoints that store state for a caller with no account (§5.1 enables
// dynamic registration for anyone): one table, each row a route of the provider and the checks made before the
// provider reads the request, so a refused request costs no parse and stores nothing.
//   - registration: counted per client address (rule oauth-registration-throttled-per-address) and its body bounded
//     by its Content-Length (rules oauth-registration-metadata-capped, oauth-registration-size-announced);
//   - authorization (and its resume, /auth/<uid>): counted per client address, and refused while the server holds
//     its most sign-ins in flight (rule oauth-authorization-requests-bounded);
//   - token and revocation, which make the provider fetch a client ID metadata document for an https client_id:
//     counted per client address and in all (rule oauth-client-documents-fetch-bounded).
// A row matches every spelling the provider's router answers (rule oauth-admission-every-path-spelling), not one
// string: its router folds case and drops one trailing slash, so /reg, /reg/, /REG and /Reg/ are one route.
// Answers use OAuth's JSON error form, as the provider's own answers on these endpoints do (RFC 7591 §3.2.2).
import type { Context, Middleware } from 'koa';
import type { Limits } from '../../spec/index.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import { clientAddress } from '../api/client-address.js';

/** The registration endpoint inside the provider's app (its `routes.registration`, mounted under /oidc). */
export const REGISTRATION_PATH = '/reg';

/** The authorization endpoint inside the provider's app (its default `routes.authorization`, mounted under /oidc). */
export const AUTHORIZATION_PATH = '/auth';

/** The token and revocation endpoints inside the provider's app (its default routes). */
export const TOKEN_PATH = '/token';
export const REVOCATION_PATH = '/token/revocation';

/**
 * Whether oidc-provider's router could send `path` to the route at `route` (or, with `below`, to one of its
 * `route/:param` routes). Its router compares paths case-folded and retries once without a trailing slash
 * (lib/helpers/router.js). `toUpperCase` folds every spelling it folds and a few more (ı and ſ become ASCII here,
 * never there): a path matched here that the provider does not route only meets a check it did not need.
 */
export function routesTo(path: string, route: string, { below = false } = {}): boolean {
  const folded = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toUpperCase();
  const target = route.toUpperCase();
  return folded === target || (below && folded.startsWith(`${target}/`));
}

/** Answers the request in OAuth's JSON error form; the provider never sees it. */
function refuse(ctx: Context, status: number, error: string, description: string): 'refused' {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error, error_description: description };
  return 'refused';
}

/** A check of a row: refuses the request (and answers it) or lets it on. */
export type Check = (ctx: Context) => Promise<'refused' | void> | 'refused' | void;

export interface AdmissionRow {
  /** The route's path inside the provider's app. */
  route: string;
  /** Its `route/:param` routes too. */
  below?: boolean;
  /** Only these methods; all when absent. */
  methods?: string[];
  checks: Check[];
}

export interface AdmissionPorts {
  limiter: SlidingWindowLimiter;
  limits: Pick<Limits, 'oauthRegistration' | 'oauthAuthorization' | 'oauthClientDocuments'>;
  /** The sign-ins in flight: Interaction records not expired. */
  liveInteractions: () => Promise<number>;
  now?: () => number;
  /** Changes the table (a composition's oauthAdmission, app.ts): a row or a check left out, replaced or added. */
  rows?: (rows: readonly AdmissionRow[]) => readonly AdmissionRow[];
}

function perAddress(ports: AdmissionPorts, name: string, window: { limit: number; windowSeconds: number }, what: string, overall?: { limit: number; windowSeconds: number }): Check {
  const now = ports.now ?? Date.now;
  return (ctx) => {
    const keys = [{ key: `${name}:address:${clientAddress(ctx)}`, window }, ...(overall ? [{ key: `${name}:all`, window: overall }] : [])];
    const refused = ports.limiter.take(keys, now());
    if (!refused) return;
    ctx.set('retry-after', String(refused.retryAfterSeconds));
    const from = refused.refusedKey.endsWith(':all') ? 'from all addresses together' : 'from this address';
    return refuse(ctx, 429, 'rate_limited', `Too many ${what} ${from}: ${refused.window.limit} per ${refused.window.windowSeconds} seconds. Retry after ${refused.retryAfterSeconds} seconds.`);
  };
}

/**
 * A registration's body is bounded by its announced size (rule oauth-registration-metadata-capped): one without a
 * Content-Length (chunked) is refused (rule oauth-registration-size-announced), so the provider never reads more
 * than the cap.
 */
export const registrationBodyBounded = (maxBytes: number): Check =>
  Object.assign(
    (ctx: Context) => {
      const announced = ctx.get('content-length');
      if (!/^\d+$/.test(announced)) return refuse(ctx, 411, 'invalid_request', 'A client registration must announce its size in Content-Length.');
      if (Number(announced) > maxBytes) return refuse(ctx, 413, 'invalid_client_metadata', `Client metadata may be at most ${maxBytes} bytes.`);
    },
    { rule: 'oauth-registration-metadata-capped' },
  );

/** The table: what is checked before the provider reads a request, per route. */
export function admissionTable(ports: AdmissionPorts): AdmissionRow[] {
  const { oauthRegistration: registration, oauthAuthorization: authorization, oauthClientDocuments: documents } = ports.limits;
  const fetching = perAddress(ports, 'oauth-token', documents.perAddress, 'token and revocation requests', documents.overall);
  return [
    {
      route: REGISTRATION_PATH,
      methods: ['POST'],
      checks: [
        perAddress(ports, 'oauth-registration', registration.perAddress, 'client registrations'),
        registrationBodyBounded(registration.maxMetadataBytes),
      ],
    },
    {
      route: AUTHORIZATION_PATH,
      below: true,
      checks: [
        perAddress(ports, 'oauth-authorization', authorization.perAddress, 'authorization requests'),
        async (ctx) => {
          if ((await ports.liveInteractions()) < authorization.maxInteractions) return;
          ctx.set('retry-after', '60');
          return refuse(ctx, 503, 'temporarily_unavailable', 'Too many sign-ins are in progress right now. Retry in a minute.');
        },
      ],
    },
    { route: TOKEN_PATH, methods: ['POST'], checks: [fetching] },
    { route: REVOCATION_PATH, methods: ['POST'], checks: [fetching] },
  ];
}

/** The admission layer: runs before the provider's router, so a refused request is never read. */
export function oauthAdmission(ports: AdmissionPorts): Middleware {
  const table = ports.rows ? ports.rows(admissionTable(ports)) : admissionTable(ports);
  return async (ctx, next) => {
    const row = table.find((r) => (!r.methods || r.methods.includes(ctx.method)) && routesTo(ctx.path, r.route, { below: r.below }));
    if (row) for (const check of row.checks) if ((await check(ctx)) === 'refused') return;
    return next();
  };
}
