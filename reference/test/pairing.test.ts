// Device-code pairing in the domain (reference/domain/pairing.ts; §3, §4.1, §5.3–5.5): what a start holds, how a user
// code looks and is found, when a pairing expires, that the poll hands the token out once, and each refusal of an
// approval with its code and wording. features/pairing.feature checks the flow black-box over HTTP; these pin the
// pieces it cannot observe one at a time (the mutants it leaves alive).
import { createHash } from 'node:crypto';
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvePairing, Pairings } from '../domain/pairing.js';
import { refusal } from './domain-refusal.js';
import type { Site, WorkspaceDoc } from '../domain/model.js';

// randomInt stays the real one unless a test makes user codes collide (vi.mocked(...).mockImplementation…).
vi.mock('node:crypto', async (original) => {
  const real = await original<typeof import('node:crypto')>();
  return { ...real, randomInt: vi.fn(real.randomInt) };
});
afterEach(() => vi.mocked(crypto.randomInt).mockReset());

const T0 = Date.UTC(2026, 0, 1, 12);
const LIFETIME_MS = 10 * 60_000;
const USER_CODE = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/; // no 0/O, 1/I


describe('Pairings: start, find, poll, deny', () => {
  it('a start holds the requested scopes once each, the variant flags, a pending status and ten minutes to live', () => {
    const { pairing, deviceCode } = new Pairings().start({ scopes: ['site:read', 'content:write', 'site:read'], admin: true }, T0);
    expect(pairing).toMatchObject({ requested: ['site:read', 'content:write'], admin: true, readOnly: false, status: 'pending', expiresAt: T0 + LIFETIME_MS });
    expect(pairing.userCode).toMatch(USER_CODE);
    // Only the device code's digest is kept.
    expect(pairing.deviceCodeHash).toBe(createHash('sha256').update(deviceCode).digest('hex'));
    expect(new Pairings().start({ scopes: ['site:read'], readOnly: true }, T0).pairing).toMatchObject({ admin: false, readOnly: true });
  });

  it('refuses unknown scopes by name, before anything is held', () => {
    const pairings = new Pairings({ maxPending: 1 });
    const error = refusal(() => pairings.start({ scopes: ['site:read', 'site:everything', 'mail:send'] }, T0));
    expect(error).toMatchObject({ code: 'validation_failed', message: 'Unknown scopes: site:everything, mail:send.' });
    // Nothing was held: the one place of a cap of one is still free.
    expect(() => pairings.start({ scopes: ['site:read'] }, T0)).not.toThrow();
  });

  it('rule:pairings-in-memory-capped — past the cap a start is refused with the time until the oldest expires; expired ones make room', () => {
    const pairings = new Pairings({ maxPending: 1 });
    pairings.start({ scopes: ['site:read'] }, T0);
    const full = refusal(() => pairings.start({ scopes: ['site:read'] }, T0 + 60_000));
    expect(full.code).toBe('pairing_capacity');
    expect(full.details).toEqual({ retryAfterSeconds: 540 });
    expect(full.message).toContain('Retry after 540 seconds');
    expect(() => pairings.start({ scopes: ['site:read'] }, T0 + LIFETIME_MS)).not.toThrow();
  });

  it('a user code that is already held is drawn again', () => {
    const draws = vi.mocked(crypto.randomInt);
    // The first two codes are both AAAA-AAAA, the third BBBB-BBBB.
    let n = 0;
    draws.mockImplementation((() => (n++ < 32 ? 0 : 1)) as never);
    const pairings = new Pairings();
    const first = pairings.start({ scopes: ['site:read'] }, T0).pairing;
    const second = pairings.start({ scopes: ['site:read'] }, T0).pairing;
    expect(first.userCode).toBe('AAAA-AAAA');
    expect(second.userCode).toBe('BBBB-BBBB');
  });

  it('find takes the code as typed (spaces, lower case) until the pairing expires', () => {
    const pairings = new Pairings();
    const { pairing } = pairings.start({ scopes: ['site:read'] }, T0);
    expect(pairings.find(` ${pairing.userCode.toLowerCase()} `, T0 + 1)).toBe(pairing);
    expect(pairings.find(pairing.userCode, T0 + LIFETIME_MS - 1)).toBe(pairing);
    expect(pairings.find(pairing.userCode, T0 + LIFETIME_MS)).toBeUndefined();
  });

  it('the poll says pending until decided, hands the token out exactly once, and expired for an unknown or expired code', () => {
    const pairings = new Pairings();
    const { pairing, deviceCode } = pairings.start({ scopes: ['site:read'] }, T0);
    expect(pairings.poll(deviceCode, T0 + 1)).toEqual({ status: 'pending' });
    expect(pairings.poll('not-a-device-code', T0 + 1)).toEqual({ status: 'expired' });
    pairing.status = 'approved';
    pairing.grant = { token: 'smcp_live_x', websiteId: 'site_1', scopes: ['site:read'], kind: 'connection' };
    expect(pairings.poll(deviceCode, T0 + 2)).toEqual({ status: 'approved', token: 'smcp_live_x', websiteId: 'site_1', scopes: ['site:read'], kind: 'connection' });
    expect(pairings.poll(deviceCode, T0 + 3)).toEqual({ status: 'redeemed' });
    expect(pairing.grant).toBeUndefined();

    // The poll forgets an expired pairing by itself (no start or find in between).
    const later = new Pairings();
    const waiting = later.start({ scopes: ['site:read'] }, T0);
    expect(later.poll(waiting.deviceCode, T0 + LIFETIME_MS)).toEqual({ status: 'expired' });
  });

  it('deny decides only a pending pairing', () => {
    const pairings = new Pairings();
    const pending = pairings.start({ scopes: ['site:read'] }, T0).pairing;
    pairings.deny(pending);
    expect(pending.status).toBe('denied');
    const approved = pairings.start({ scopes: ['site:read'] }, T0).pairing;
    approved.status = 'approved';
    pairings.deny(approved);
    expect(approved.status).toBe('approved');
  });
});

const NOW = new Date(T0);
const site = (websiteId: string, members: Record<string, string>) => ({ websiteId, members, deliveryTokens: [] }) as unknown as Site;
function workspace(sites: Site[]): WorkspaceDoc {
  return {
    ownerUserId: 'usr_owner',
    users: { usr_owner: { userId: 'usr_owner' }, usr_other: { userId: 'usr_other' } },
    sites: Object.fromEntries(sites.map((s) => [s.websiteId, s])),
    connections: {},
  } as unknown as WorkspaceDoc;
}
const pending = (options: { admin?: boolean; readOnly?: boolean } = {}) => new Pairings().start({ scopes: ['site:read', 'content:write'], ...options }, T0).pairing;

describe('approvePairing', () => {
  it('rule:pairing-grant-only-narrower — grants the ticked scopes it asked for, as a paired connection of that website', () => {
    const ws = workspace([site('site_1', { usr_owner: 'owner' })]);
    const pairing = pending();
    const { connection } = approvePairing(ws, pairing, { userId: 'usr_owner', websiteId: 'site_1', scopes: ['content:write', 'crm:write'] }, NOW);
    expect(connection).toMatchObject({ kind: 'paired', reach: 'website', websiteId: 'site_1', createdBy: 'usr_owner' });
    expect(connection!.scopes).toContain('content:write');
    expect(connection!.scopes).not.toContain('crm:write');
    expect(ws.connections[connection!.connectionId]).toBe(connection);
    expect(pairing.status).toBe('approved');
    expect(pairing.grant).toMatchObject({ websiteId: 'site_1', scopes: connection!.scopes, kind: 'connection' });
    expect(pairing.grant!.token).toMatch(/^smcp_live_/);
  });

  it('rule:pairing-admin-needs-website — the admin variant is approved for one website', () => {
    const ws = workspace([site('site_1', { usr_owner: 'owner' })]);
    const pairing = pending({ admin: true });
    const { connection } = approvePairing(ws, pairing, { userId: 'usr_owner', websiteId: 'site_1', scopes: ['site:read'] }, NOW);
    expect(connection).toMatchObject({ reach: 'website', websiteId: 'site_1' });
    expect(pairing.status).toBe('approved');
  });

  it('a company-wide approval in a company without a website has workspace reach', () => {
    const ws = workspace([]);
    const { connection } = approvePairing(ws, pending(), { userId: 'usr_owner', websiteId: null, scopes: ['site:read'] }, NOW);
    expect(connection).toMatchObject({ reach: 'workspace', websiteId: null });
  });

  it('a read-only pairing stores a delivery token (its digest and a short prefix) and hands out no scopes', () => {
    const s = site('site_1', { usr_owner: 'owner' });
    const ws = workspace([s]);
    const pairing = pending({ readOnly: true });
    const approved = approvePairing(ws, pairing, { userId: 'usr_owner', websiteId: 'site_1', scopes: ['site:read'] }, NOW);
    const token = pairing.grant!.token;
    expect(token).toMatch(/^smcp_deliver_[A-Za-z0-9_-]{43}$/);
    expect(pairing.grant).toEqual({ token, websiteId: 'site_1', scopes: [], kind: 'delivery' });
    const digest = createHash('sha256').update(token).digest('hex');
    expect(s.deliveryTokens).toEqual([{ tokenHash: digest, prefix: token.slice(0, 17), createdAt: NOW.toISOString() }]);
    expect(approved).toMatchObject({ deliveryTokenHash: digest, connection: undefined });
    expect(Object.keys(ws.connections)).toHaveLength(0);
  });

  it('each refusal, with its code and wording', () => {
    const ws = workspace([site('site_1', { usr_owner: 'owner', usr_other: 'editor' })]);
    const decided = pending();
    decided.status = 'denied';
    expect(refusal(() => approvePairing(ws, decided, { userId: 'usr_owner', websiteId: 'site_1', scopes: [] }, NOW))).toMatchObject({ code: 'conflict', message: 'This pairing is denied.' });
    // rule pairing-admin-needs-website
    expect(refusal(() => approvePairing(ws, pending({ admin: true }), { userId: 'usr_owner', websiteId: null, scopes: [] }, NOW))).toMatchObject({
      code: 'validation_failed',
      message: 'The admin variant needs a website; company-wide approval is refused.',
    });
    // rule pairing-approval-owner-only
    expect(refusal(() => approvePairing(ws, pending(), { userId: 'usr_other', websiteId: null, scopes: [] }, NOW))).toMatchObject({
      code: 'owner_only',
      message: 'Only the company owner can approve a company-wide pairing.',
    });
    expect(refusal(() => approvePairing(ws, pending(), { userId: 'usr_owner', websiteId: 'site_9', scopes: [] }, NOW))).toMatchObject({ code: 'not_found', message: 'No such website.' });
    expect(refusal(() => approvePairing(ws, pending(), { userId: 'usr_other', websiteId: 'site_1', scopes: [] }, NOW))).toMatchObject({
      code: 'owner_only',
      message: 'Only an owner of this website can approve a pairing.',
    });
    expect(refusal(() => approvePairing(ws, pending(), { userId: 'usr_owner', websiteId: null, scopes: [] }, NOW))).toMatchObject({
      code: 'validation_failed',
      message: 'This company has a website: choose which website the pairing is for.',
    });
    expect(refusal(() => approvePairing(workspace([]), pending({ readOnly: true }), { userId: 'usr_owner', websiteId: null, scopes: [] }, NOW))).toMatchObject({
      code: 'validation_failed',
      message: 'A read-only pairing needs a website.',
    });
  });
});
