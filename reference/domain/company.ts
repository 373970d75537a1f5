// A new company made through the reviewed rail (§2.7): plan free, no credits, no website, no monthly credit
// reset, no trial, no payment-provider object. It is its own workspace document; the anchor workspace only
// gets its plan marked redeemed (rule plan-company-effect-never-writes-anchor).
import type { WorkspaceDoc } from './model.js';
import type { Store } from '../store/store.js';
import { newId } from './ids.js';

export async function createCompany(store: Store, anchor: WorkspaceDoc, companyName: string, ownerUserId: string, now: Date): Promise<WorkspaceDoc> {
  const owner = anchor.users[ownerUserId]!;
  const company: WorkspaceDoc = {
    id: newId('ws'),
    companyName,
    plan: 'free',
    credits: 0,
    aiConsent: false,
    advancedEditorGrant: false,
    areasOff: [],
    clockOffsetMs: anchor.clockOffsetMs,
    ownerUserId,
    createdAt: now.toISOString(),
    users: { [ownerUserId]: structuredClone(owner) },
    sites: {},
    connections: {},
    plans: {},
    expiredPlans: {},
    outbox: [],
    billing: { monthlyCreditReset: false, trialEndsAt: null, paymentCustomerId: null },
  };
  // Written before the anchor's transaction commits; should that commit fail, an empty company with no
  // site, credits or billing remains, which grants nothing and is visible to the owner.
  await store.create(company);
  return company;
}
