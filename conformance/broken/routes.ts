// Broken HTTP routes: a router the composition serves before the reference's own routes (reference/app.ts
// Composition.router, the seam test mode mounts the fixtures protocol through), each answering one address the way
// a server without that care would. Only what a client outside MCP meets is broken here: the read-only delivery
// address of a read-only pairing (our decision, pairing-field-names; rules delivery-token-*) and /auth.md.
import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { RouterPorts } from '../../reference/app.js';
import type { AdmissionRow } from '../../reference/auth/oauth-admission.js';
import { entryOf } from '../../reference/domain/model.js';
import { toPortableSite } from '../../reference/domain/portable-site.js';
import { authMd } from '../../reference/api/auth-md.js';

const DELIVERY = '/v1/delivery/site';

/** The workspace and site a delivery token in `ctx` stands for, as the reference's delivery route finds them. */
async function deliverySite(ports: Pick<RouterPorts, 'store'>, ctx: Context) {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  const entry = match ? await ports.store.lookupDirectory('delivery', createHash('sha256').update(match[1]!).digest('hex')) : undefined;
  const [workspaceId, websiteId] = entry?.split(' ') ?? [];
  const site = workspaceId ? entryOf((await ports.store.read(workspaceId))?.sites ?? {}, websiteId) : undefined;
  return site && workspaceId ? { workspaceId, site } : undefined;
}

/** delivery-token-read-published-only: the delivery address serves the draft, as if it were the live site. */
export function deliveryServesDraft(ports: Pick<RouterPorts, 'store' | 'baseUrl'>): Router {
  const router = new Router();
  router.get(DELIVERY, async (ctx, next) => {
    const found = await deliverySite(ports, ctx);
    if (!found) return next();
    ctx.body = toPortableSite(found.site, new Date(), ports.baseUrl);
  });
  return router;
}

/** delivery-token-cannot-write: DELETE at the delivery address, with the delivery token, takes the site offline. */
export function deliveryTokenUnpublishes(ports: Pick<RouterPorts, 'store'>): Router {
  const router = new Router();
  router.delete(DELIVERY, async (ctx, next) => {
    const found = await deliverySite(ports, ctx);
    if (!found) return next();
    await ports.store.transact(found.workspaceId, (ws) => {
      const site = entryOf(ws.sites, found.site.websiteId);
      if (site) site.published = null;
    });
    ctx.body = { unpublished: true };
  });
  return router;
}

/** auth-md-ways-in-and-human-only: /auth.md's list of what is not implemented forgets one §1.7 item. */
export function authMdForgetsCustomHeadCode(): Router {
  const router = new Router();
  router.get('/auth.md', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = authMd().split('\n').filter((line) => !line.includes('custom head code')).join('\n');
  });
  return router;
}

/**
 * auth-md-discovery: /auth.md as the reference writes it, less the lines that name `scope` (as when a scope added
 * later is never described there).
 */
export function authMdWithout(scope: string): () => Router {
  return () => {
    const router = new Router();
    router.get('/auth.md', (ctx) => {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = authMd()
        .split('\n')
        .filter((line) => !line.includes(`\`${scope}\``))
        .join('\n');
    });
    return router;
  };
}

/**
 * oauth-no-error-redirect-unverified-client: an authorization request without a PKCE challenge is answered with a
 * redirect to whatever redirect_uri it names, the error attached, before the provider sees it: an open redirect.
 */
export function authorizationErrorsRedirect(): Router {
  const router = new Router();
  router.get('/oidc/auth', (ctx, next) => {
    const redirectUri = typeof ctx.query.redirect_uri === 'string' ? ctx.query.redirect_uri : undefined;
    if (!redirectUri || ctx.query.code_challenge || !URL.canParse(redirectUri)) return next();
    const to = new URL(redirectUri);
    to.searchParams.set('error', 'invalid_request');
    if (typeof ctx.query.state === 'string') to.searchParams.set('state', ctx.query.state);
    ctx.status = 303;
    ctx.redirect(to.href);
  });
  return router;
}

/**
 * pairing-bound-to-first-workspace: the company a pairing's code was first opened by is forgotten whenever the code is
 * opened, decided or approved again, so whoever comes next holds it.
 */
export function pairingForgetsItsCompany(ports: Pick<RouterPorts, 'pairings'>): Router {
  const router = new Router();
  const forget = (code: unknown) => {
    const pairing = typeof code === 'string' ? ports.pairings.find(code) : undefined;
    if (pairing) pairing.workspaceId = undefined;
  };
  router.get('/dashboard/connect', (ctx, next) => {
    forget(ctx.query.code);
    return next();
  });
  router.post('/test-fixtures/v1/pairings/:userCode/approve', (ctx, next) => {
    forget(ctx.params.userCode);
    return next();
  });
  return router;
}

/**
 * protected-resource-metadata-names-its-resource: the root well-known document answers as the MCP endpoint's does,
 * naming <base>/api/mcp, a resource a client fetching it for <base> must discard (RFC 9728 §3.3).
 */
export function rootMetadataNamesEndpoint(ports: Pick<RouterPorts, 'baseUrl'>): Router {
  const router = new Router();
  router.get('/.well-known/oauth-protected-resource', (ctx) => {
    ctx.body = { resource: `${ports.baseUrl}/api/mcp`, authorization_servers: [`${ports.baseUrl}/oidc`], bearer_methods_supported: ['header'] };
  });
  return router;
}

/**
 * oauth-registration-size-announced: the registration's size check trusts the announced size alone; a body without a
 * Content-Length (chunked) is let through to the provider, whatever its length.
 */
export function announcedSizeOnly(rows: readonly AdmissionRow[]): AdmissionRow[] {
  return rows.map((row) => ({
    ...row,
    checks: row.checks.map((check) =>
      (check as { rule?: string }).rule === 'oauth-registration-metadata-capped' ? (ctx: Context) => (ctx.get('content-length') ? check(ctx) : undefined) : check,
    ),
  }));
}
