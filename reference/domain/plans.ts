// The reviewed owner-approval rail (§1.6, §2.6, §3): plans are created by prepare_* tools, decided by a
// signed-in owner in the app (or the fixtures protocol, through the same decidePlan), and redeemed once by
// confirm_pending_action. The states and transitions are those of spec/plan-states.json.
import type { Connection, Plan, Site, WorkspaceDoc } from './model.js';
import type { PlanKind } from './vocabulary.js';
import { newId } from './ids.js';
import { DomainError } from './errors.js';
import { checkPlanDecider, checkRole, mayViewPlan, checkScopes, checkWorkspaceGates, planGate, PLAN_REDEMPTION } from './authorize.js';
import { entryOf } from './model.js';
import { loadLimits, prepareToolOf } from '../../spec/index.js';

/**
 * Removes plans past expiry, leaving a tombstone so a late confirm answers plan_expired (rule
 * plan-expired-garbage-collected). Tombstones live a day, and a workspace keeps at most `maxTombstones`, the oldest
 * going first: one connection preparing plans all day would otherwise grow its workspace's document with each.
 */
export function collectExpiredPlans(ws: WorkspaceDoc, now: Date, maxTombstones = loadLimits().expiredPlanTombstones.value): void {
  const iso = now.toISOString();
  for (const plan of Object.values(ws.plans)) {
    if (plan.expiresAt <= iso && plan.status !== 'redeemed') {
      ws.expiredPlans[plan.planId] = plan.expiresAt;
      delete ws.plans[plan.planId];
    }
  }
  // Tombstones themselves live a day, the oldest first past the cap (they are kept in the order they were made).
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  for (const [planId, at] of Object.entries(ws.expiredPlans)) if (at < dayAgo) delete ws.expiredPlans[planId];
  const tombstones = Object.keys(ws.expiredPlans);
  for (const planId of tombstones.slice(0, Math.max(0, tombstones.length - maxTombstones))) delete ws.expiredPlans[planId];
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
  // A plan of a website the person is no member of is missing to them (rule plan-page-site-members-only).
  if (!plan || !mayViewPlan(ws, plan, userId)) {
    if (!plan && entryOf(ws.expiredPlans, planId) !== undefined) throw new DomainError('plan_expired', 'This plan expired. Ask the assistant to prepare a fresh one.');
    throw new DomainError('not_found', 'No such plan.');
  }
  checkPlanDecider(ws, plan, userId);
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
  // The plan's own scope, its creator's live role and its area, decided as for a call (rule plan-redeem-reauthorizes-anchor).
  const gate = planGate(prepareToolOf(plan.kind));
  checkScopes(connection, gate, PLAN_REDEMPTION);
  const site = entryOf(ws.sites, plan.websiteId);
  if (!site) throw new DomainError('not_found', `No plan "${planId}" exists for this connection.`);
  checkRole(ws, connection, site, gate, PLAN_REDEMPTION);
  checkWorkspaceGates(ws, gate, PLAN_REDEMPTION);
  return { plan, site };
}
