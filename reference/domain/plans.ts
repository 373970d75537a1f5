// The reviewed owner-approval rail (§1.6, §2.6, §3): plans are created by prepare_* tools, decided by a
// signed-in owner in the app (or the fixtures protocol, through the same decidePlan), and redeemed once by
// confirm_pending_action. The states and transitions are those of spec/plan-states.json.
import type { Connection, Plan, Site, WorkspaceDoc } from './model.js';
import type { PlanKind, Role } from './vocabulary.js';
import { ROLE_RANK } from './vocabulary.js';
import { newId } from './ids.js';
import { DomainError } from './errors.js';
import { satisfies } from './scopes.js';
import { entryOf } from './model.js';
import { planKindSpec } from '../../spec/index.js';

/** Removes plans past expiry, leaving a tombstone so a late confirm answers plan_expired (rule plan-expired-garbage-collected). */
export function collectExpiredPlans(ws: WorkspaceDoc, now: Date): void {
  const iso = now.toISOString();
  for (const plan of Object.values(ws.plans)) {
    if (plan.expiresAt <= iso && plan.status !== 'redeemed') {
      ws.expiredPlans[plan.planId] = plan.expiresAt;
      delete ws.plans[plan.planId];
    }
  }
  // Tombstones themselves live a day.
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  for (const [planId, at] of Object.entries(ws.expiredPlans)) if (at < dayAgo) delete ws.expiredPlans[planId];
  // Redeemed plans are kept a day for the activity trail, then dropped.
  for (const plan of Object.values(ws.plans)) if (plan.status === 'redeemed' && plan.expiresAt < dayAgo) delete ws.plans[plan.planId];
}

export function createPlan(
  ws: WorkspaceDoc,
  input: { kind: PlanKind; connection: Connection; websiteId: string; params: Record<string, unknown>; pinned: Plan['pinned']; summary: string },
  now: Date,
  lifetimeSeconds: number,
): Plan {
  collectExpiredPlans(ws, now);
  const plan: Plan = {
    planId: newId('plan'),
    kind: input.kind,
    connectionId: input.connection.connectionId,
    websiteId: input.websiteId,
    status: 'awaiting_approval',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    pinned: input.pinned,
    params: input.params,
    summary: input.summary,
  };
  ws.plans[plan.planId] = plan;
  return plan;
}

export function reviewCard(plan: Plan, site: Site | undefined, baseUrl: string) {
  return {
    planId: plan.planId,
    kind: plan.kind,
    websiteId: plan.websiteId,
    ...(site ? { websiteName: site.name } : {}),
    summary: plan.summary,
    pinned: plan.pinned,
    expiresAt: plan.expiresAt,
    approvalUrl: `${baseUrl}/app/plans/${plan.planId}`,
    next: 'Show this card to the owner. After they approve it in the app, call confirm_pending_action with this planId. It expires in 5 minutes.',
  };
}

/**
 * A signed-in person approves or declines a plan (rules plan-approval-signed-in-owner,
 * plan-approver-owner-and-creator, plan-approve-before-expiry). The app page and the fixtures protocol both
 * call this; no MCP tool can (rule plan-no-mcp-approval).
 */
export function decidePlan(ws: WorkspaceDoc, planId: string, userId: string, decision: 'approve' | 'decline', now: Date): Plan {
  collectExpiredPlans(ws, now);
  const plan = entryOf(ws.plans, planId);
  if (!plan) {
    if (entryOf(ws.expiredPlans, planId) !== undefined) throw new DomainError('plan_expired', 'This plan expired. Ask the assistant to prepare a fresh one.');
    throw new DomainError('not_found', 'No such plan.');
  }
  const connection = entryOf(ws.connections, plan.connectionId);
  const site = entryOf(ws.sites, plan.websiteId);
  if (!connection || !site || site.members[userId] !== 'owner' || connection.createdBy !== userId) {
    throw new DomainError('owner_only', 'Only the owner of this website who created the connection can decide on this plan.');
  }
  if (plan.status !== 'awaiting_approval') throw new DomainError('conflict', `This plan is already ${plan.status.replace('_', ' ')}.`);
  plan.status = decision === 'approve' ? 'approved' : 'declined';
  return plan;
}

/**
 * The refusals of confirm_pending_action before any effect, in order: unknown or collected plan; another
 * caller; re-pointed at another website; state (declined, used, expired, not approved); the plan's own
 * scope, the creator's live role and area on the plan's website (rule plan-redeem-reauthorizes-anchor).
 */
export function checkRedeemable(ws: WorkspaceDoc, connection: Connection, planId: string, websiteId: string | undefined, now: Date): { plan: Plan; site: Site } {
  collectExpiredPlans(ws, now);
  const plan = entryOf(ws.plans, planId);
  if (!plan) {
    if (entryOf(ws.expiredPlans, planId) !== undefined) throw new DomainError('plan_expired', 'This plan expired (plans live 5 minutes). Prepare a fresh one and ask the owner to approve it.', { planId });
    throw new DomainError('not_found', `No plan "${planId}" exists for this connection.`);
  }
  if (plan.connectionId !== connection.connectionId) {
    throw new DomainError('plan_wrong_caller', 'Only the connection that prepared this plan can confirm it. Prepare a fresh plan from this connection.', { planId });
  }
  if (websiteId !== undefined && websiteId !== plan.websiteId) {
    throw new DomainError('plan_anchor_mismatch', 'This plan belongs to another website; a plan cannot be pointed at a different site. Prepare a plan for that site.', { planId });
  }
  if (plan.status === 'declined') throw new DomainError('plan_declined', 'The owner declined this plan.', { planId });
  if (plan.status === 'redeemed') throw new DomainError('plan_used', 'This plan was already carried out; plans work exactly once. Prepare a fresh one.', { planId });
  if (plan.status !== 'approved') {
    throw new DomainError('plan_not_approved', 'The owner has not approved this plan yet. Ask them to open the approval link, then confirm again.', { planId });
  }
  const spec = planKindSpec(plan.kind);
  if (!satisfies(connection.scopes, spec.scope)) {
    throw new DomainError('scope_denied', `This connection lacks the scope ${spec.scope} that this plan needs.`, { requiredScopes: [spec.scope], grantedScopes: connection.scopes });
  }
  const site = ws.sites[plan.websiteId];
  if (!site) throw new DomainError('not_found', `No plan "${planId}" exists for this connection.`);
  const role = site.members[connection.createdBy] as Role | undefined;
  if (!role) throw new DomainError('access_denied', 'The person who created this connection no longer has access to the plan\'s website.', { cause: 'creator-access-removed' });
  // Which kinds are owner-only is a fact of spec/plan-states.json (grant_access, create_company).
  if (spec.ownerOnly && role !== 'owner') throw new DomainError('owner_only', 'Only an owner can carry out this plan, and the connection\'s creator is no longer an owner.', { cause: `creator-role-${role}` });
  if (ROLE_RANK[role] < ROLE_RANK.editor) throw new DomainError('access_denied', `The connection's creator is now a ${role} of this website.`, { cause: `creator-role-${role}` });
  if (spec.area && ws.areasOff.includes(spec.area)) throw new DomainError('area_disabled', `The ${spec.area} area is switched off for this account by its agency.`, { cause: `area-${spec.area}-off` });
  return { plan, site };
}
