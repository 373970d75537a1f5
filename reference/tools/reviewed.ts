// The reviewed rail's tools (§1.6, §2.6, §4.3): seven prepare_* tools that create plans, publish_site which
// fails closed, and confirm_pending_action which redeems an approved plan and performs its effect, all in one
// transaction (the plan is marked redeemed in the same write as the effect; the effects: domain/plan-effects.ts).
import { DomainError } from '../domain/errors.js';
import { checkApprovalAnchor } from '../domain/authorize.js';
import { createPlan, reviewCard } from '../domain/plans.js';
import { findRecord, redeemPlan, sendable } from '../domain/plan-effects.js';
import { fingerprint } from '../domain/site.js';
import type { Plan, Site } from '../domain/model.js';
import type { PlanKind } from '../domain/vocabulary.js';
import { defineTool, type ToolContext } from './types.js';

/** A prepare_* handler: its arguments typed by the tool it is declared for (defineTool infers A). */
function prepare<A>(kind: PlanKind, describe: (ctx: ToolContext<A, Site>, site: Site) => { params: Record<string, unknown>; pinned: Plan['pinned']; summary: string }) {
  return async (ctx: ToolContext<A, Site>) => {
    const card = await ctx.write((ws, site) => {
      const { params, pinned, summary } = describe(ctx, site);
      const plan = createPlan(ws, { kind, connection: ctx.connection, websiteId: site.websiteId, params, pinned, summary }, ctx.now, ctx.limits.planLifetimeSeconds);
      return reviewCard(plan, site, ctx.baseUrl);
    });
    ctx.note(`${kind} plan prepared`);
    return card;
  };
}

const prepare_publish = defineTool('prepare_publish', prepare('publish', (_ctx, site) => ({
  params: {},
  pinned: { siteRevision: site.siteRevision },
  summary: `Publish the draft of "${site.name}" at revision ${site.siteRevision}: the live site becomes exactly this draft.`,
})));

const prepare_unpublish = defineTool('prepare_unpublish', prepare('unpublish', (_ctx, site) => {
  if (!site.published) throw new DomainError('validation_failed', `"${site.name}" is not published, so there is nothing to unpublish.`);
  // Not pinned to the draft: §2.6 pins publish, product publish and document sends only (rule plan-pins-site-revision).
  return { params: {}, pinned: {}, summary: `Take "${site.name}" off its public address.` };
}));

const prepare_search_visibility = defineTool('prepare_search_visibility', prepare('search_visibility', (ctx, site) => {
  const { visible } = ctx.args;
  return { params: { visible }, pinned: {}, summary: visible ? `Let search engines index "${site.name}".` : `Ask search engines not to index "${site.name}".` };
}));

const prepare_publish_product = defineTool('prepare_publish_product', prepare('publish_product', (ctx, site) => {
  const { productId } = ctx.args;
  const product = findRecord(site, 'products', 'productId', productId);
  return { params: { productId }, pinned: { productRevision: Number(product.revision ?? 0) }, summary: `Make the product "${String(product.name)}" (revision ${Number(product.revision ?? 0)}) public on "${site.name}".` };
}));

const prepare_grant_access = defineTool('prepare_grant_access', prepare('grant_access', (ctx, site) => {
  const { email, level } = ctx.args;
  // The schema admits editor|viewer only; this guards the rule even if a schema were loosened (rule grant-access-levels).
  if (level !== 'editor' && level !== 'viewer') throw new DomainError('validation_failed', 'Access level must be editor or viewer; owner cannot be granted over MCP.');
  return { params: { email: email.toLowerCase(), level }, pinned: {}, summary: `Invite one person as ${level} of "${site.name}" only (not the whole workspace).` };
}));

const prepare_send_document = defineTool('prepare_send_document', prepare('send_document', (ctx, site) => {
  const { documentId } = ctx.args;
  const doc = findRecord(site, 'documents', 'documentId', documentId);
  if (!sendable(doc)) throw new DomainError('validation_failed', 'This document was already sent or is not a draft; only never-sent drafts can be sent.');
  return { params: { documentId }, pinned: { documentFingerprint: fingerprint(doc) }, summary: `Send ${String(doc.kind)} ${String(doc.number ?? documentId)} to its customer.` };
}));

/** Company creation anchors to the connection's current site, as approval context only (rule plan-company-anchor-context-only). */
const prepare_create_company = defineTool('prepare_create_company', async (ctx) => {
  const anchor = checkApprovalAnchor(ctx.ws, ctx.connection, ctx.args.websiteId);
  const anchorId = anchor.websiteId;
  const card = await ctx.write((ws) => {
    const plan = createPlan(
      ws,
      { kind: 'create_company', connection: ctx.connection, websiteId: anchorId, params: { companyName: ctx.args.companyName }, pinned: {}, summary: `Create a new company named "${ctx.args.companyName}" on plan free, with no website and no credits. "${anchor.name}" is only where you approve it.` },
      ctx.now,
      ctx.limits.planLifetimeSeconds,
    );
    return reviewCard(plan, ws.sites[anchorId], ctx.baseUrl);
  });
  ctx.note('create_company plan prepared');
  return card;
});

const publish_site = defineTool('publish_site', async () => {
  throw new DomainError('review_required', 'Publishing needs the owner\'s review: call prepare_publish, show the owner the review card, and after they approve it in the app call confirm_pending_action.', {
    use: 'prepare_publish',
  });
});

const confirm_pending_action = defineTool('confirm_pending_action', async (ctx) => {
  const outcome = await ctx.store.transact(ctx.ws.id, (ws, tx) =>
    // cast: the caller's connection authenticated this call, and a workspace never removes a connection (revoking keeps it).
    redeemPlan(ctx.store, ws, tx, ws.connections[ctx.connection.connectionId]!, ctx.args.planId, ctx.args.websiteId, ctx.now),
  );
  ctx.note(`${outcome.kind} plan confirmed`);
  return outcome;
});

export const reviewedHandlers = {
  prepare_publish,
  prepare_unpublish,
  prepare_search_visibility,
  prepare_publish_product,
  prepare_grant_access,
  prepare_send_document,
  prepare_create_company,
  publish_site,
  confirm_pending_action,
};
