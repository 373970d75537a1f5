// The effects of the reviewed rail's plans (§2.6, §3): what confirm_pending_action carries out for each plan kind of
// spec/plan-states.json, in the same transaction that marks the plan redeemed, after checkRedeemable (plans.ts)
// re-checked the plan and its creator's authorization. A plan pinned to what was reviewed refuses when that changed.
import { createHash, randomBytes } from 'node:crypto';
import { DomainError, recordNotFound } from './errors.js';
import { checkRedeemable } from './plans.js';
import { fingerprint } from './site.js';
import { newId } from './ids.js';
import type { Connection, Plan, Site, WorkspaceDoc } from './model.js';
import type { PlanKind } from './vocabulary.js';
import { companyFacts, createCompany } from './company.js';
import type { Store, Transaction } from '../infra/store/store.js';
import type { ConfirmPendingActionOutput } from '../../generated/tools/confirm_pending_action.js';

/** A product or document of the site by its id, or the one not-found answer for a record. */
export function findRecord(site: Site, kind: 'products' | 'documents', idField: string, id: string): Record<string, unknown> {
  const record = site.records[kind].find((r) => r[idField] === id);
  if (!record) throw recordNotFound(kind === 'products' ? 'product' : 'document', id);
  return record;
}

/** A document that was never sent and is still a draft (rule plan-pins-document-fingerprint). */
export const sendable = (doc: Record<string, unknown>) => doc.status === 'draft' && !doc.sentAt;

/** What an effect reports: a sentence, and the result fields confirm_pending_action's output schema admits (tsc checks them). */
type Done = { effect: string; result: ConfirmPendingActionOutput['result'] };
/** `connection` is the plan's own: checkRedeemable refuses any other caller (rule plan-caller-bound). */
type Effect = (ws: WorkspaceDoc, site: Site, plan: Plan, now: Date, store: Store, tx: Transaction, connection: Connection) => Done | Promise<Done>;

function requirePinned(ok: boolean, planId: string, rule: 'plan-pins-site-revision' | 'plan-pins-product-revision' | 'plan-pins-document-fingerprint'): void {
  if (!ok) throw new DomainError('plan_subject_changed', 'What this plan was reviewed for has changed since; a fresh review is required. Prepare a new plan.', { planId });
}

/** What each plan kind does once redeemed (spec/plan-states.json kinds[].effect). */
const EFFECTS: Record<PlanKind, Effect> = {
  publish: (_ws, site, plan, now) => {
    requirePinned(site.siteRevision === plan.pinned.siteRevision, plan.planId, 'plan-pins-site-revision');
    site.published = { revision: site.siteRevision, publishedAt: now.toISOString(), content: structuredClone(site.draft) };
    return { effect: `Published revision ${site.siteRevision}.`, result: { publishedRevision: site.siteRevision } };
  },
  unpublish: (_ws, site) => {
    site.published = null;
    return { effect: 'The site is no longer on its public address.', result: { status: 'unpublished' } };
  },
  publish_product: (_ws, site, plan) => {
    const productId = String(plan.params.productId);
    const product = findRecord(site, 'products', 'productId', productId);
    requirePinned(Number(product.revision ?? 0) === plan.pinned.productRevision, plan.planId, 'plan-pins-product-revision');
    product.status = 'public';
    return { effect: `Product ${String(product.name)} is public.`, result: { productId, status: 'public' } };
  },
  grant_access: (ws, site, plan, now) => {
    const secret = randomBytes(24).toString('base64url');
    const invitation = {
      invitationId: newId('inv'),
      email: String(plan.params.email),
      // cast: only prepare_grant_access makes grant_access plans, and it stores editor or viewer only (rule grant-access-levels).
      level: plan.params.level as 'editor' | 'viewer',
      status: 'pending' as const,
      createdAt: now.toISOString(),
      secretHash: createHash('sha256').update(secret).digest('hex'),
    };
    site.invitations.push(invitation);
    ws.outbox.push({ messageId: newId('msg'), kind: 'invitation', websiteId: site.websiteId, subjectId: invitation.invitationId, queuedAt: now.toISOString() });
    // The acceptance link goes to the invitee's mailbox only; the caller gets ids (rule grant-access-no-link).
    return { effect: `Invitation created as ${invitation.level}, pending acceptance.`, result: { invitationId: invitation.invitationId, level: invitation.level, status: 'pending' } };
  },
  send_document: (ws, site, plan, now) => {
    const documentId = String(plan.params.documentId);
    const doc = findRecord(site, 'documents', 'documentId', documentId);
    requirePinned(fingerprint(doc) === plan.pinned.documentFingerprint && sendable(doc), plan.planId, 'plan-pins-document-fingerprint');
    doc.status = 'sent';
    doc.sentAt = now.toISOString();
    ws.outbox.push({ messageId: newId('msg'), kind: 'document', websiteId: site.websiteId, subjectId: documentId, queuedAt: now.toISOString() });
    return { effect: `${String(doc.kind)} marked sent.`, result: { documentId, documentStatus: 'sent' } };
  },
  create_company: async (ws, _site, plan, now, store, tx, connection) => {
    // Committed with the plan marked redeemed, or not at all (rule company-creation-atomic).
    const company = await createCompany(store, tx, ws, plan.planId, String(plan.params.companyName), connection.createdBy, now);
    // Reported from the stored company, so the caller (and the suite) sees what was really created.
    return {
      effect: `Company "${company.companyName}" created on plan ${company.plan}.`,
      result: { companyId: company.id, ...companyFacts(company) },
    };
  },
  search_visibility: (_ws, site, plan) => {
    site.searchVisible = Boolean(plan.params.visible);
    return { effect: site.searchVisible ? 'Search engines may index the site.' : 'Search engines are asked not to index the site.', result: { searchVisible: site.searchVisible } };
  },
};

/**
 * Redeems plan `planId` for `connection` inside the transaction of its workspace `ws`: checks it (checkRedeemable),
 * carries out its effect and marks it redeemed in the same write (rule confirm-redeems-plan).
 */
export async function redeemPlan(store: Store, ws: WorkspaceDoc, tx: Transaction, connection: Connection, planId: string, websiteId: string | undefined, now: Date) {
  const { plan, site } = checkRedeemable(ws, connection, planId, websiteId, now);
  const done = await EFFECTS[plan.kind](ws, site, plan, now, store, tx, connection);
  plan.status = 'redeemed';
  return { planId: plan.planId, kind: plan.kind, websiteId: plan.websiteId, ...done };
}
