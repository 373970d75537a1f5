// The reviewed rail's own rules one by one (§1.6, §2.6, §3; reference/domain/plans.ts): expiry and its
// tombstones, who may decide a plan, and the refusals of confirm_pending_action in their order with the details
// a program acts on. The features and the plans model (conformance/properties/plans-model.test.ts) check the rail
// black-box; these pin the boundaries and details they cannot reach (a day of tombstones, each refusal's details).
import { describe, expect, it } from 'vitest';
import { checkRedeemable, collectExpiredPlans, createPlan, decidePlan, reviewCard } from '../domain/plans.js';
import { refusal } from './domain-refusal.js';
import type { Connection, Plan, Site, WorkspaceDoc } from '../domain/model.js';
import type { PlanKind } from '../domain/vocabulary.js';
import { loadLimits } from '../../spec/index.js';

const T0 = new Date('2026-09-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;
const DAY = 86_400_000;

const owner = 'usr_owner';
function fixture(options: { role?: string; scopes?: string[]; areasOff?: string[] } = {}) {
  const connection = { connectionId: 'conn_1', createdBy: owner, reach: 'website', websiteId: 'site_1', scopes: options.scopes ?? ['site:read', 'publish', 'access:write', 'commerce:write', 'workspace:write', 'communications:write'] } as Connection;
  const site = { websiteId: 'site_1', name: 'Bakery', members: { [owner]: options.role ?? 'owner', usr_editor: 'editor' } } as unknown as Site;
  const ws = { sites: { site_1: site }, connections: { conn_1: connection }, plans: {}, expiredPlans: {}, areasOff: options.areasOff ?? [] } as unknown as WorkspaceDoc;
  return { ws, connection, site };
}
function plan(ws: WorkspaceDoc, connection: Connection, kind: PlanKind = 'publish', now = T0): Plan {
  return createPlan(ws, { kind, connection, websiteId: 'site_1', params: {}, pinned: {}, summary: 'Publish the draft' }, now, 300);
}

describe('createPlan and reviewCard rule:plan-expiry-five-minutes', () => {
  it('a new plan awaits approval for its lifetime and its card links the approval page', () => {
    const { ws, connection, site } = fixture();
    const p = plan(ws, connection);
    expect(p).toMatchObject({ kind: 'publish', connectionId: 'conn_1', websiteId: 'site_1', status: 'awaiting_approval', createdAt: T0.toISOString(), expiresAt: at(5 * MINUTE).toISOString() });
    expect(p.planId).toMatch(/^plan_/);
    expect(ws.plans[p.planId]).toBe(p);
    const card = reviewCard(p, site, 'https://example.test');
    expect(card).toMatchObject({ planId: p.planId, websiteName: 'Bakery', approvalUrl: `https://example.test/app/plans/${p.planId}`, expiresAt: p.expiresAt });
    expect(card.next).toContain('confirm_pending_action');
    expect(reviewCard(p, undefined, 'https://example.test')).not.toHaveProperty('websiteName');
  });
});

describe('collectExpiredPlans rule:plan-expired-garbage-collected', () => {
  it('a plan is collected at its expiry, leaving a tombstone that lives a day', () => {
    const { ws, connection } = fixture();
    const p = plan(ws, connection);
    collectExpiredPlans(ws, at(5 * MINUTE - 1));
    expect(ws.plans[p.planId]).toBeDefined();
    collectExpiredPlans(ws, at(5 * MINUTE));
    expect(ws.plans[p.planId]).toBeUndefined();
    expect(ws.expiredPlans[p.planId]).toBe(p.expiresAt);
    collectExpiredPlans(ws, at(5 * MINUTE + DAY));
    expect(ws.expiredPlans[p.planId]).toBe(p.expiresAt);
    collectExpiredPlans(ws, at(5 * MINUTE + DAY + 1));
    expect(ws.expiredPlans[p.planId]).toBeUndefined();
  });

  it('a workspace keeps at most its cap of tombstones, the oldest forgotten first', () => {
    const { ws, connection } = fixture();
    const plans = Array.from({ length: 5 }, (_, i) => plan(ws, connection, 'publish', at(i * 1000)));
    collectExpiredPlans(ws, at(10 * MINUTE), 3);
    expect(Object.keys(ws.expiredPlans)).toEqual(plans.slice(2).map((p) => p.planId));
    expect(loadLimits().expiredPlanTombstones.value).toBeGreaterThan(0);
  });

  it('preparing a plan collects the expired ones first', () => {
    const { ws, connection } = fixture();
    const old = plan(ws, connection);
    const fresh = plan(ws, connection, 'publish', at(5 * MINUTE));
    expect(Object.keys(ws.plans)).toEqual([fresh.planId]);
    expect(ws.expiredPlans).toEqual({ [old.planId]: old.expiresAt });
  });

  it('a redeemed plan is no tombstone: it stays a day after its expiry for the activity trail, then goes', () => {
    const { ws, connection } = fixture();
    const p = plan(ws, connection);
    p.status = 'redeemed';
    collectExpiredPlans(ws, at(5 * MINUTE + DAY));
    expect(ws.plans[p.planId]).toBe(p);
    expect(ws.expiredPlans).toEqual({});
    collectExpiredPlans(ws, at(5 * MINUTE + DAY + 1));
    expect(ws.plans[p.planId]).toBeUndefined();
    expect(ws.expiredPlans).toEqual({});
  });
});

describe('decidePlan rule:plan-approver-owner-and-creator rule:plan-approve-before-expiry', () => {
  it('the owner who created the connection approves or declines once', () => {
    const { ws, connection } = fixture();
    const a = plan(ws, connection);
    const d = plan(ws, connection);
    expect(decidePlan(ws, a.planId, owner, 'approve', T0).status).toBe('approved');
    expect(decidePlan(ws, d.planId, owner, 'decline', T0).status).toBe('declined');
    expect(refusal(() => decidePlan(ws, a.planId, owner, 'decline', T0))).toMatchObject({ code: 'conflict', message: 'This plan is already approved.' });
    expect(refusal(() => decidePlan(ws, d.planId, owner, 'approve', T0))).toMatchObject({ code: 'conflict', message: 'This plan is already declined.' });
  });

  it('another member, an owner who did not create the connection, or a plan whose connection is gone: owner_only; no member of the website, or its website gone: not_found (rule plan-page-site-members-only)', () => {
    const { ws, connection, site } = fixture();
    site.members.usr_other = 'owner';
    const p = plan(ws, connection);
    expect(refusal(() => decidePlan(ws, p.planId, 'usr_editor', 'approve', T0)).code).toBe('owner_only');
    expect(refusal(() => decidePlan(ws, p.planId, 'usr_other', 'approve', T0)).code).toBe('owner_only');
    const noConnection = fixture();
    const q = plan(noConnection.ws, noConnection.connection);
    delete noConnection.ws.connections.conn_1;
    expect(refusal(() => decidePlan(noConnection.ws, q.planId, owner, 'approve', T0)).code).toBe('owner_only');
    const noSite = fixture();
    const r = plan(noSite.ws, noSite.connection);
    delete noSite.ws.sites.site_1;
    expect(refusal(() => decidePlan(noSite.ws, r.planId, owner, 'approve', T0))).toMatchObject({ code: 'not_found', message: 'No such plan.' });
    expect(refusal(() => decidePlan(ws, p.planId, 'usr_stranger', 'approve', T0))).toMatchObject({ code: 'not_found', message: 'No such plan.' });
    expect(ws.plans[p.planId]!.status).toBe('awaiting_approval');
  });

  it('an expired plan is plan_expired and says so; an unknown id (also an inherited name) is not found', () => {
    const { ws, connection } = fixture();
    const p = plan(ws, connection);
    expect(refusal(() => decidePlan(ws, p.planId, owner, 'approve', at(5 * MINUTE)))).toMatchObject({ code: 'plan_expired', message: 'This plan expired. Ask the assistant to prepare a fresh one.' });
    expect(refusal(() => decidePlan(ws, 'plan_nope', owner, 'approve', T0))).toMatchObject({ code: 'not_found', message: 'No such plan.' });
    expect(refusal(() => decidePlan(ws, 'toString', owner, 'approve', T0)).code).toBe('not_found');
  });
});

describe('checkRedeemable rule:plan-single-use rule:plan-caller-bound rule:plan-redeem-reauthorizes-anchor', () => {
  const approved = (options: Parameters<typeof fixture>[0] = {}, kind: PlanKind = 'publish') => {
    const f = fixture(options);
    const p = plan(f.ws, f.connection, kind);
    decidePlan(f.ws, p.planId, owner, 'approve', T0);
    return { ...f, p };
  };

  it('an approved plan of this caller for its own site is redeemable, with or without the websiteId', () => {
    const { ws, connection, site, p } = approved();
    expect(checkRedeemable(ws, connection, p.planId, undefined, T0)).toEqual({ plan: p, site });
    expect(checkRedeemable(ws, connection, p.planId, 'site_1', at(5 * MINUTE - 1)).plan).toBe(p);
  });

  it('refuses unknown, expired, another caller\'s, re-pointed, declined, used and unapproved plans, each with its planId', () => {
    const { ws, connection, p } = approved();
    expect(refusal(() => checkRedeemable(ws, connection, 'plan_nope', undefined, T0))).toMatchObject({ code: 'not_found' });
    expect(refusal(() => checkRedeemable(ws, connection, 'toString', undefined, T0))).toMatchObject({ code: 'not_found' });
    expect(refusal(() => checkRedeemable(ws, { ...connection, connectionId: 'conn_2' }, p.planId, undefined, T0))).toMatchObject({ code: 'plan_wrong_caller', details: { planId: p.planId } });
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, 'site_2', T0))).toMatchObject({ code: 'plan_anchor_mismatch', details: { planId: p.planId } });
    p.status = 'declined';
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, undefined, T0))).toMatchObject({ code: 'plan_declined', details: { planId: p.planId } });
    p.status = 'redeemed';
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, undefined, T0))).toMatchObject({ code: 'plan_used', details: { planId: p.planId } });
    p.status = 'awaiting_approval';
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, undefined, T0))).toMatchObject({ code: 'plan_not_approved', details: { planId: p.planId } });
    p.status = 'approved';
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, undefined, at(5 * MINUTE)))).toMatchObject({ code: 'plan_expired', details: { planId: p.planId } });
  });

  it('a caller check comes before the state: another connection learns nothing about a declined plan', () => {
    const { ws, connection, p } = approved();
    p.status = 'declined';
    expect(refusal(() => checkRedeemable(ws, { ...connection, connectionId: 'conn_2' }, p.planId, undefined, T0)).code).toBe('plan_wrong_caller');
    expect(refusal(() => checkRedeemable(ws, connection, p.planId, 'site_2', T0)).code).toBe('plan_anchor_mismatch');
  });

  it('re-checks the plan\'s scope, the creator\'s live role and the area at redemption', () => {
    const scope = approved({ scopes: ['site:read'] });
    expect(refusal(() => checkRedeemable(scope.ws, scope.connection, scope.p.planId, undefined, T0))).toEqual({
      code: 'scope_denied',
      message: 'This connection lacks the scope publish that this plan needs.',
      retryable: false,
      // Worded for the plan: no tool is named (the caller is confirm_pending_action, not the prepare_* tool).
      details: { requiredScopes: ['publish'], grantedScopes: ['site:read'] },
    });

    const removed = approved();
    delete removed.site.members[owner];
    expect(refusal(() => checkRedeemable(removed.ws, removed.connection, removed.p.planId, undefined, T0))).toMatchObject({ code: 'access_denied', details: { cause: 'creator-access-removed' } });

    const viewer = approved();
    viewer.site.members[owner] = 'viewer';
    expect(refusal(() => checkRedeemable(viewer.ws, viewer.connection, viewer.p.planId, undefined, T0))).toEqual({
      code: 'access_denied',
      message: "The connection's creator is now a viewer of this website.",
      retryable: false,
      details: { cause: 'creator-role-viewer' },
    });

    const editor = approved();
    editor.site.members[owner] = 'editor';
    expect(checkRedeemable(editor.ws, editor.connection, editor.p.planId, undefined, T0).plan.kind).toBe('publish');

    const ownerOnly = approved({}, 'grant_access');
    ownerOnly.site.members[owner] = 'editor';
    expect(refusal(() => checkRedeemable(ownerOnly.ws, ownerOnly.connection, ownerOnly.p.planId, undefined, T0))).toMatchObject({ code: 'owner_only', details: { cause: 'creator-role-editor' } });

    const company = approved({}, 'create_company');
    company.site.members[owner] = 'editor';
    expect(refusal(() => checkRedeemable(company.ws, company.connection, company.p.planId, undefined, T0))).toMatchObject({ code: 'owner_only' });

    const area = approved({ areasOff: ['commerce'] }, 'publish_product');
    expect(refusal(() => checkRedeemable(area.ws, area.connection, area.p.planId, undefined, T0))).toMatchObject({ code: 'area_disabled', details: { cause: 'area-commerce-off' } });
    const otherArea = approved({ areasOff: ['invoicing'] }, 'publish_product');
    expect(checkRedeemable(otherArea.ws, otherArea.connection, otherArea.p.planId, undefined, T0).plan.kind).toBe('publish_product');

    const gone = approved();
    delete gone.ws.sites.site_1;
    // A plan whose website is gone answers like an unknown plan.
    expect(refusal(() => checkRedeemable(gone.ws, gone.connection, gone.p.planId, undefined, T0))).toMatchObject({ code: 'not_found', message: `No plan "${gone.p.planId}" exists for this connection.` });
  });
});
