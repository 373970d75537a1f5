// A new company made through the reviewed rail (§2.7): plan free, no credits, no website, no monthly credit
// reset, no trial, no payment-provider object. It is its own workspace document; the anchor workspace only
// gets its plan marked redeemed (rule plan-company-effect-never-writes-anchor).
import type { WorkspaceDoc } from './model.js';
import type { Store } from '../store/store.js';
import { newWorkspaceDoc } from './workspace.js';

export async function createCompany(store: Store, anchor: WorkspaceDoc, companyName: string, ownerUserId: string, now: Date): Promise<WorkspaceDoc> {
  const owner = anchor.users[ownerUserId]!;
  // Plan free, no credits, no website, no credit reset, no trial, no payment-provider object (the defaults).
  const company = newWorkspaceDoc(
    { companyName, plan: 'free', ownerUserId, clockOffsetMs: anchor.clockOffsetMs, users: { [ownerUserId]: structuredClone(owner) } },
    now,
  );
  // Written before the anchor's transaction commits; should that commit fail, an empty company with no
  // site, credits or billing remains, which grants nothing and is visible to the owner.
  await store.create(company);
  return company;
}
