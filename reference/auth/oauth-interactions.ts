// The sign-in and consent steps of the OAuth flow (§5, "the user signs in as the site owner and approves"):
// the owner signs in with the app's session, picks the website and may untick scopes; approving creates the
// one connection this client is bound to (replacing an earlier one for the same client and owner). The page
// names the client by the name it registered (self-asserted, so its redirect address is shown too); an unknown
// or expired interaction answers 404 with what to do.
import Router from '@koa/router';
import type { Context } from 'koa';
import { errors } from 'oidc-provider';
import { createConnection } from '../domain/connections.js';
import { indexConnection } from './authenticate.js';
import { ALL_SCOPES, SCOPE_GRANTS } from '../domain/scopes.js';
import { DomainError } from '../domain/errors.js';
import { HTTP_STATUS } from '../api/errors.js';
import { appSecurityHeaders, formTargetSource, message, render } from '../web/render.js';
import { checkedForm, formOf, sessionOf, signedIn, type Sessions } from '../web/session.js';
import { OAuthEdge } from './oauth-edge.js';
import type { OAuthPort } from './oauth-identity.js';
import type { IdentityProvider } from './oauth-provider.js';
import type { Clock } from '../infra/clock.js';
import type { Store } from '../infra/store/store.js';

type Provider = IdentityProvider['provider'];

/** What the sign-in and consent pages of an OAuth authorization use of the server. */
export interface InteractionPorts {
  readonly store: Store;
  readonly clock: Clock;
  readonly sessions: Sessions;
  readonly oauth: OAuthPort;
}

/** The interaction of this request, or null after answering 404 for an unknown or expired one. */
async function interactionOf(ctx: Context, provider: Provider) {
  try {
    return await provider.interactionDetails(ctx.req, ctx.res);
  } catch (error) {
    if (!(error instanceof errors.SessionNotFound)) throw error;
    message(ctx, 'Link expired', 'This sign-in link is unknown or has expired. Start connecting again from your AI client.', 404);
    return null;
  }
}

export function oauthInteractionRouter(ports: InteractionPorts): Router {
  const router = new Router({ prefix: '/oidc-interaction' });

  // Redirects too (rule app-pages-frame-protection).
  router.use((ctx, next) => {
    appSecurityHeaders(ctx);
    return next();
  });

  // An unknown or expired interaction answers 404 before anything asks for a session.
  router.get('/:uid', async (ctx: Context, next) => {
    const details = await interactionOf(ctx, (await ports.oauth()).idp.provider);
    if (!details) return;
    ctx.state.interaction = details;
    await next();
  }, signedIn(ports.sessions), async (ctx: Context) => {
    const oauth = await ports.oauth();
    const session = sessionOf(ctx);
    const details = ctx.state.interaction as NonNullable<Awaited<ReturnType<typeof interactionOf>>>;
    if (details.prompt.name === 'login') {
      const url = await oauth.idp.provider.interactionResult(ctx.req, ctx.res, { login: { accountId: session.userId } }, { mergeWithLastSubmission: false });
      return ctx.redirect(url);
    }
    const ws = (await ports.store.read(session.workspaceId))!;
    const owned = Object.values(ws.sites).filter((s) => s.members[session.userId] === 'owner');
    const requested = String(details.params.scope ?? '').split(' ').filter((s) => ALL_SCOPES.includes(s));
    const clientId = String(details.params.client_id);
    const client = await oauth.idp.provider.Client.find(clientId);
    const returnTo = String(details.params.redirect_uri ?? '');
    render(
      ctx,
      'consent',
      {
        title: 'Connect an AI client',
        uid: details.uid,
        clientName: client?.clientName ?? null,
        clientId,
        returnTo: formTargetSource(returnTo) ?? returnTo,
        scopes: requested.map((s) => ({ name: s, grants: SCOPE_GRANTS[s] })),
        owned,
      },
      { formTargets: client?.redirectUris ?? [] },
    );
  });

  router.post('/:uid/consent', signedIn(ports.sessions), checkedForm, async (ctx: Context) => {
    const oauth = await ports.oauth();
    const session = sessionOf(ctx);
    const body = formOf(ctx);
    const details = await interactionOf(ctx, oauth.idp.provider);
    if (!details) return;
    const clientId = String(details.params.client_id);
    if (body.get('decision') !== 'approve') {
      const url = await oauth.idp.provider.interactionResult(ctx.req, ctx.res, { error: 'access_denied', error_description: 'The owner denied access.' }, { mergeWithLastSubmission: false });
      return ctx.redirect(url);
    }
    const requested = String(details.params.scope ?? '').split(' ');
    const granted = body.getAll('scope').filter((s) => requested.includes(s) && ALL_SCOPES.includes(s));
    const key = OAuthEdge.bindingKey(clientId, session.userId);
    let connection;
    try {
      connection = await ports.store.transact(session.workspaceId, (ws, tx) => {
        const now = ports.clock.now(ws.id);
        // One connection per client and owner: an earlier one is revoked, never silently reused.
        for (const c of Object.values(ws.connections)) if (c.oauth && OAuthEdge.bindingKey(c.oauth.clientId, c.oauth.subject) === key && !c.revokedAt) c.revokedAt = now.toISOString();
        const created = createConnection(ws, { userId: session.userId, websiteId: body.get('websiteId') ?? '', scopes: granted, kind: 'oauth' }, now).connection;
        created.oauth = { clientId, subject: session.userId };
        indexConnection(tx, created, session.workspaceId);
        tx.index('oauth', key, `${session.workspaceId} ${created.connectionId}`);
        return created;
      });
    } catch (error) {
      if (error instanceof DomainError) return message(ctx, 'Not approved', error.message, HTTP_STATUS[error.code]);
      throw error;
    }
    const grant = new oauth.idp.provider.Grant({ accountId: session.userId, clientId });
    // The grant covers what was requested (whatever the provider reports missing: OIDC scopes, since our scopes
    // are registrable, and the resource's scopes), so the consent prompt is satisfied; what the client may do is
    // decided by the bound connection's scopes (the ticked ones), checked on every MCP call.
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    grant.addOIDCScope(['openid', ...(missing.missingOIDCScope ?? [])].join(' '));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    grant.addResourceScope(oauth.idp.resource, requested.filter((s) => ALL_SCOPES.includes(s)).join(' '));
    const grantId = await grant.save();
    const url = await oauth.idp.provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    ctx.redirect(url);
  });

  return router;
}
