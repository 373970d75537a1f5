// A new company made through the reviewed rail (§2.7): plan free, no credits, no website, no monthly credit
// reset, no trial, no payment-provider object. It is its own workspace document; the anchor workspace only
// gets its plan marked redeemed (rule plan-company-effect-never-writes-anchor). The two commit both or neither
// (rule company-creation-atomic): the company is created through the anchor's transaction.
import { createHash } from 'node:crypto';
import type { WorkspaceDoc } from './model.js';
import type { Store, Transaction } from '../infra/store/store.js';
import { newWorkspaceDoc } from './workspace.js';

/**
 * The company a plan creates has an id derived from the plan, so a confirmation is idempotent: the new company
 * and the anchor's plan marked redeemed are one commit of the store (reference/infra/store/journal.ts: all of it or
 * none, across a crash; rule company-creation-atomic), and a confirmation retried after a crash that cut off its
 * answer finds the company already there and completes, never creating a second one (rule create-company-once).
 */
export function companyIdForPlan(anchorWorkspaceId: string, planId: string): string {
  return `ws_c${createHash('sha256').update(`${anchorWorkspaceId}/${planId}`).digest('hex').slice(0, 24)}`;
}

/** The company of `planId`: the one a crashed earlier attempt left, or a new one that `tx` commits with the anchor. */
export async function createCompany(store: Store, tx: Transaction, anchor: WorkspaceDoc, planId: string, companyName: string, ownerUserId: string, now: Date): Promise<WorkspaceDoc> {
  const id = companyIdForPlan(anchor.id, planId);
  const adopted = await store.read(id);
  if (adopted) return adopted;
  // cast: the owner is the redeeming connection's creator, a user of the anchor workspace, which never removes a user.
  const owner = anchor.users[ownerUserId]!;
  // Plan free, no credits, no website, no credit reset, no trial, no payment-provider object (the defaults).
  const company: WorkspaceDoc = {
    ...newWorkspaceDoc(
      { companyName, plan: 'free', ownerUserId, users: { [ownerUserId]: structuredClone(owner) } },
      now,
    ),
    id,
  };
  tx.create(company);
  return company;
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
