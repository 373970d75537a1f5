// A new, empty workspace document: the one place its shape is spelled out. The world builder, the seed and
// company creation pass only what differs.
import type { WorkspaceDoc } from './model.js';
import { newId } from './ids.js';

type Required = 'companyName' | 'plan' | 'ownerUserId';

export function newWorkspaceDoc(fields: Pick<WorkspaceDoc, Required> & Partial<Omit<WorkspaceDoc, Required>>, now: Date): WorkspaceDoc {
  return {
    id: newId('ws'),
    credits: 0,
    aiConsent: false,
    advancedEditorGrant: false,
    areasOff: [],
    clockOffsetMs: 0,
    createdAt: now.toISOString(),
    users: {},
    sites: {},
    connections: {},
    plans: {},
    expiredPlans: {},
    outbox: [],
    billing: { monthlyCreditReset: false, trialEndsAt: null, paymentCustomerId: null },
    ...fields,
  };
}
