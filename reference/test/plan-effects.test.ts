// What confirm_pending_action carries out for each plan kind (reference/domain/plan-effects.ts; §2.6, §3), one
// effect at a time: what it changes, what it queues in the outbox, the sentence and result it reports, and the
// refusal of a plan whose pinned subject changed. features/reviewed-plans.feature and the plans model check the rail
// black-box; these pin each effect's own details. create_company needs the store (a new workspace)
// and is checked by the features and reference/test/store.test.ts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPlan } from '../domain/plans.js';
import { redeemPlan } from '../domain/plan-effects.js';
import { fingerprint } from '../domain/site.js';
import { asyncRefusal } from './domain-refusal.js';
import type { Connection, Plan, Site, WorkspaceDoc } from '../domain/model.js';
import type { PlanKind } from '../domain/vocabulary.js';
import type { Store, Transaction } from '../infra/store/store.js';

const NOW = new Date('2026-09-01T12:00:00.000Z');
const owner = 'usr_owner';

function fixture() {
  const connection = { connectionId: 'conn_1', createdBy: owner, reach: 'website', websiteId: 'site_1', scopes: ['site:read', 'publish', 'access:write', 'commerce:write', 'communications:write', 'settings:write'] } as Connection;
  const site = {
    websiteId: 'site_1',
    name: 'Bakery',
    members: { [owner]: 'owner' },
    siteRevision: 3,
    draft: { pages: [{ pageId: 'page_1', title: 'Home' }] },
    published: { revision: 2, publishedAt: '2026-08-01T00:00:00.000Z', content: { pages: [] } },
    searchVisible: true,
    invitations: [],
    records: {
      products: [{ productId: 'prod_1', name: 'Loaf', revision: 2, status: 'draft' }],
      documents: [{ documentId: 'doc_1', kind: 'invoice', status: 'draft' }],
    },
  } as unknown as Site;
  const ws = { sites: { site_1: site }, connections: { conn_1: connection }, plans: {}, expiredPlans: {}, areasOff: [], outbox: [] } as unknown as WorkspaceDoc;
  return { ws, connection, site };
}

/** An approved plan of `kind`, ready to redeem. */
function approved(ws: WorkspaceDoc, connection: Connection, kind: PlanKind, params: Record<string, unknown> = {}, pinned: Plan['pinned'] = {}): Plan {
  const plan = createPlan(ws, { kind, connection, websiteId: 'site_1', params, pinned, summary: kind }, NOW, 300);
  plan.status = 'approved';
  return plan;
}

const redeem = (ws: WorkspaceDoc, connection: Connection, plan: Plan) => redeemPlan(undefined as unknown as Store, ws, undefined as unknown as Transaction, connection, plan.planId, undefined, NOW);


const SUBJECT_CHANGED = 'What this plan was reviewed for has changed since; a fresh review is required. Prepare a new plan.';

describe('redeemPlan', () => {
  it('publish: the draft of the pinned revision goes live as a copy, and the plan is redeemed', async () => {
    const { ws, connection, site } = fixture();
    const plan = approved(ws, connection, 'publish', {}, { siteRevision: 3 });
    const done = await redeem(ws, connection, plan);
    expect(done).toEqual({ planId: plan.planId, kind: 'publish', websiteId: 'site_1', effect: 'Published revision 3.', result: { publishedRevision: 3 } });
    expect(site.published).toEqual({ revision: 3, publishedAt: NOW.toISOString(), content: site.draft });
    expect(site.published!.content).not.toBe(site.draft);
    expect(plan.status).toBe('redeemed');
  });

  it('rule:plan-pins-site-revision — publish refuses a draft edited since the review and changes nothing', async () => {
    const { ws, connection, site } = fixture();
    const plan = approved(ws, connection, 'publish', {}, { siteRevision: 2 });
    const before = structuredClone(site.published);
    expect(await asyncRefusal(() => redeem(ws, connection, plan))).toMatchObject({ code: 'plan_subject_changed', message: SUBJECT_CHANGED, details: { planId: plan.planId } });
    expect(site.published).toEqual(before);
    expect(plan.status).toBe('approved');
  });

  it('unpublish takes the site off its public address', async () => {
    const { ws, connection, site } = fixture();
    const done = await redeem(ws, connection, approved(ws, connection, 'unpublish'));
    expect(done).toMatchObject({ effect: 'The site is no longer on its public address.', result: { status: 'unpublished' } });
    expect(site.published).toBeNull();
  });

  it('rule:plan-pins-product-revision — publish_product makes the reviewed revision public, refuses another, answers a missing product as not found', async () => {
    const { ws, connection, site } = fixture();
    const product = site.records.products[0]!;
    const stale = approved(ws, connection, 'publish_product', { productId: 'prod_1' }, { productRevision: 1 });
    expect(await asyncRefusal(() => redeem(ws, connection, stale))).toMatchObject({ code: 'plan_subject_changed', message: SUBJECT_CHANGED });
    expect(product.status).toBe('draft');
    const done = await redeem(ws, connection, approved(ws, connection, 'publish_product', { productId: 'prod_1' }, { productRevision: 2 }));
    expect(done).toMatchObject({ effect: 'Product Loaf is public.', result: { productId: 'prod_1', status: 'public' } });
    expect(product.status).toBe('public');
    const gone = approved(ws, connection, 'publish_product', { productId: 'prod_9' }, { productRevision: 2 });
    expect(await asyncRefusal(() => redeem(ws, connection, gone))).toMatchObject({ code: 'not_found', message: 'No product "prod_9" exists on this website.' });
  });

  it('a product without a revision counts as revision 0', async () => {
    const { ws, connection, site } = fixture();
    delete site.records.products[0]!.revision;
    const done = await redeem(ws, connection, approved(ws, connection, 'publish_product', { productId: 'prod_1' }, { productRevision: 0 }));
    expect(done.result).toEqual({ productId: 'prod_1', status: 'public' });
  });

  it('rule:grant-access-no-link — grant_access creates a pending invitation, queues its message, and reports ids only', async () => {
    const { ws, connection, site } = fixture();
    const done = await redeem(ws, connection, approved(ws, connection, 'grant_access', { email: 'ed@example.test', level: 'editor' }));
    expect(site.invitations).toHaveLength(1);
    const invitation = site.invitations[0]!;
    expect(invitation).toMatchObject({ email: 'ed@example.test', level: 'editor', status: 'pending', createdAt: NOW.toISOString() });
    expect(invitation.invitationId).toMatch(/^inv_/);
    expect(invitation.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(ws.outbox).toEqual([{ messageId: expect.stringMatching(/^msg_/), kind: 'invitation', websiteId: 'site_1', subjectId: invitation.invitationId, queuedAt: NOW.toISOString() }]);
    expect(done).toMatchObject({ effect: 'Invitation created as editor, pending acceptance.', result: { invitationId: invitation.invitationId, level: 'editor', status: 'pending' } });
    expect(JSON.stringify(done)).not.toContain(invitation.secretHash);
  });

  it('rule:plan-pins-document-fingerprint — send_document sends the reviewed draft once, and refuses it edited or already sent', async () => {
    const { ws, connection, site } = fixture();
    const doc = site.records.documents[0]!;
    const edited = approved(ws, connection, 'send_document', { documentId: 'doc_1' }, { documentFingerprint: fingerprint({ ...doc, title: 'Before' }) });
    expect(await asyncRefusal(() => redeem(ws, connection, edited))).toMatchObject({ code: 'plan_subject_changed' });
    expect(doc.status).toBe('draft');

    const done = await redeem(ws, connection, approved(ws, connection, 'send_document', { documentId: 'doc_1' }, { documentFingerprint: fingerprint(doc) }));
    expect(done).toMatchObject({ effect: 'invoice marked sent.', result: { documentId: 'doc_1', documentStatus: 'sent' } });
    expect(doc).toMatchObject({ status: 'sent', sentAt: NOW.toISOString() });
    expect(ws.outbox).toEqual([{ messageId: expect.stringMatching(/^msg_/), kind: 'document', websiteId: 'site_1', subjectId: 'doc_1', queuedAt: NOW.toISOString() }]);

    // A draft that was sent before (sentAt set) is not sendable, even when its fingerprint is the reviewed one.
    const resent = { documentId: 'doc_2', kind: 'quote', status: 'draft', sentAt: '2026-08-01T00:00:00.000Z' };
    site.records.documents.push(resent);
    const again = approved(ws, connection, 'send_document', { documentId: 'doc_2' }, { documentFingerprint: fingerprint(resent) });
    expect(await asyncRefusal(() => redeem(ws, connection, again))).toMatchObject({ code: 'plan_subject_changed' });
    // And one whose status is no longer draft.
    const sentDoc = { documentId: 'doc_3', kind: 'quote', status: 'sent' };
    site.records.documents.push(sentDoc);
    const third = approved(ws, connection, 'send_document', { documentId: 'doc_3' }, { documentFingerprint: fingerprint(sentDoc) });
    expect(await asyncRefusal(() => redeem(ws, connection, third))).toMatchObject({ code: 'plan_subject_changed' });
    expect(ws.outbox).toHaveLength(1);
    // A document that is gone answers as a missing document.
    const gone = approved(ws, connection, 'send_document', { documentId: 'doc_9' }, { documentFingerprint: 'x' });
    expect(await asyncRefusal(() => redeem(ws, connection, gone))).toMatchObject({ code: 'not_found', message: 'No document "doc_9" exists on this website.' });
  });

  it('search_visibility sets the flag both ways and says which', async () => {
    const { ws, connection, site } = fixture();
    const hidden = await redeem(ws, connection, approved(ws, connection, 'search_visibility', { visible: false }));
    expect(hidden).toMatchObject({ effect: 'Search engines are asked not to index the site.', result: { searchVisible: false } });
    expect(site.searchVisible).toBe(false);
    const shown = await redeem(ws, connection, approved(ws, connection, 'search_visibility', { visible: true }));
    expect(shown).toMatchObject({ effect: 'Search engines may index the site.', result: { searchVisible: true } });
    expect(site.searchVisible).toBe(true);
  });

  it('the invitation secret is kept as its digest only', async () => {
    const { ws, connection, site } = fixture();
    await redeem(ws, connection, approved(ws, connection, 'grant_access', { email: 'vi@example.test', level: 'viewer' }));
    const { secretHash } = site.invitations[0]!;
    // Not the digest of nothing: a secret was drawn.
    expect(secretHash).not.toBe(createHash('sha256').update('').digest('hex'));
    expect(site.invitations[0]!.level).toBe('viewer');
  });
});
