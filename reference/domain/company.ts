// A new company made through the reviewed rail (§2.7): plan free, no credits, no website, no monthly credit
// reset, no trial, no payment-provider object. It is its own workspace document; the anchor workspace only
// gets its plan marked redeemed (rule plan-company-effect-never-writes-anchor).
import { createHash } from 'node:crypto';
import type { WorkspaceDoc } from './model.js';
import type { Store } from '../store/store.js';
import { newWorkspaceDoc } from './workspace.js';

/**
 * The company a plan creates has an id derived from the plan, so the two writes of a confirmation (the new
 * company, then the anchor's plan marked redeemed) are idempotent: a confirmation retried after a crash
 * between them finds the company already there and completes, never creating a second one (rule
 * create-company-once).
 */
export function companyIdForPlan(anchorWorkspaceId: string, planId: string): string {
  return `ws_c${createHash('sha256').update(`${anchorWorkspaceId}/${planId}`).digest('hex').slice(0, 24)}`;
}

export async function createCompany(store: Store, anchor: WorkspaceDoc, planId: string, companyName: string, ownerUserId: string, now: Date): Promise<WorkspaceDoc> {
  const owner = anchor.users[ownerUserId]!;
  // Plan free, no credits, no website, no credit reset, no trial, no payment-provider object (the defaults).
  const company: WorkspaceDoc = {
    ...newWorkspaceDoc(
      { companyName, plan: 'free', ownerUserId, clockOffsetMs: anchor.clockOffsetMs, users: { [ownerUserId]: structuredClone(owner) } },
      now,
    ),
    id: companyIdForPlan(anchor.id, planId),
  };
  // Written before the anchor's transaction commits. Should that commit fail, the plan stays approved and a
  // retried confirmation adopts this company instead of writing another.
  if (await store.create(company, [], { ifAbsent: true })) return company;
  return (await store.read(company.id))!;
}

/** What a company is on the facts §2.7 names (plan, credits, websites, trial, credit reset, payment object). */
export function companyFacts(company: WorkspaceDoc) {
  return {
    plan: company.plan,
    credits: company.credits,
    websites: Object.keys(company.sites).length,
    trial: company.billing.trialEndsAt !== null,
    monthlyCreditReset: company.billing.monthlyCreditReset,
    paymentProviderObject: company.billing.paymentCustomerId !== null,
  };
}
