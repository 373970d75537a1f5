// Device-code pairing (§3, §4.1, §5.3–5.5): the CLI asks for scopes and gets a user code; a signed-in owner
// approves at /dashboard/connect, unticking scopes if they wish; the next poll returns the token once. The
// result is an ordinary connection (or, for the read-only variant, a delivery token), so there is no second
// authorization path. Nothing is minted before a human approves. Pairings live in memory: they last 10
// minutes, and a restart only makes the CLI start over.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { WorkspaceDoc } from './model.js';
import { ALL_SCOPES } from './scopes.js';
import { createConnection } from './connections.js';
import { DomainError } from './errors.js';
import { checkOwnerOf } from './authorize.js';

export interface Pairing {
  userCode: string;
  deviceCodeHash: string;
  requested: string[];
  admin: boolean;
  readOnly: boolean;
  status: 'pending' | 'approved' | 'denied' | 'redeemed' | 'expired';
  expiresAt: number;
  /**
   * The workspace whose signed-in person first opened or decided the code (rule pairing-bound-to-first-workspace):
   * from then on the pairing exists for no other workspace, so an owner elsewhere who learns the code can neither
   * see, deny nor approve it (approving would hand the requester's tool a token to the other owner's site).
   */
  workspaceId?: string;
  /** Set on approval, handed out by the first poll after it and then forgotten. */
  grant?: { token: string; websiteId: string | null; scopes: string[]; kind: 'connection' | 'delivery' };
}

/**
 * Refusal of a new pairing while the process already holds the most it will keep in memory (rule
 * pairings-in-memory-capped): without a cap, a flood of starts from many addresses grows memory without bound.
 */
function pairingsFull(retryAfterSeconds: number): DomainError {
  return new DomainError('pairing_capacity', `Too many pairings are waiting for approval right now. Retry after ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
}

const LIFETIME_MS = 10 * 60_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

export class Pairings {
  #byUserCode = new Map<string, Pairing>();
  #byDevice = new Map<string, Pairing>();

  /** Starts a pairing; with `maxPending` held already (after dropping the expired ones) throws pairing_capacity. */
  start(input: { scopes: string[]; admin?: boolean; readOnly?: boolean }, nowMs = Date.now(), maxPending = Number.POSITIVE_INFINITY) {
    const unknown = input.scopes.filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) throw new DomainError('validation_failed', `Unknown scopes: ${unknown.join(', ')}.`);
    this.#sweep(nowMs);
    // Every pairing still held counts, decided or not: each one is memory until it expires. Nothing is evicted
    // early, so a flood cannot push out an owner's pairing that is waiting for approval.
    if (this.#byUserCode.size >= maxPending) {
      const oldest = this.#byUserCode.values().next().value as Pairing;
      throw pairingsFull(Math.max(1, Math.ceil((oldest.expiresAt - nowMs) / 1000)));
    }
    const code = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    let userCode = '';
    do userCode = `${code().slice(0, 4)}-${code().slice(4)}`;
    while (this.#byUserCode.has(userCode));
    const deviceCode = randomBytes(32).toString('base64url');
    const pairing: Pairing = { userCode, deviceCodeHash: hash(deviceCode), requested: [...new Set(input.scopes)], admin: Boolean(input.admin), readOnly: Boolean(input.readOnly), status: 'pending', expiresAt: nowMs + LIFETIME_MS };
    this.#byUserCode.set(userCode, pairing);
    this.#byDevice.set(pairing.deviceCodeHash, pairing);
    return { pairing, deviceCode };
  }

  find(userCode: string, nowMs = Date.now()): Pairing | undefined {
    this.#sweep(nowMs);
    return this.#byUserCode.get(userCode.trim().toUpperCase());
  }

  /**
   * The pairing of `userCode` as the workspace `workspaceId` sees it: undefined when unknown, expired or bound to
   * another workspace (the same answer, so a code's use elsewhere is not told); an unbound one is bound to
   * `workspaceId` (rule pairing-bound-to-first-workspace).
   */
  findFor(userCode: string, workspaceId: string, nowMs = Date.now()): Pairing | undefined {
    const pairing = this.find(userCode, nowMs);
    return pairing && claimPairing(pairing, workspaceId) ? pairing : undefined;
  }

  /** The poll: pending until decided; the token exactly once; then redeemed. */
  poll(deviceCode: string, nowMs = Date.now()) {
    this.#sweep(nowMs);
    const pairing = this.#byDevice.get(hash(deviceCode));
    if (!pairing) return { status: 'expired' as const };
    if (pairing.status === 'approved' && pairing.grant) {
      const grant = pairing.grant;
      pairing.grant = undefined;
      pairing.status = 'redeemed';
      return { status: 'approved' as const, ...grant };
    }
    return { status: pairing.status };
  }

  deny(pairing: Pairing): void {
    if (pairing.status === 'pending') pairing.status = 'denied';
  }

  #sweep(nowMs: number): void {
    for (const [code, p] of this.#byUserCode) {
      if (p.expiresAt > nowMs) continue;
      this.#byUserCode.delete(code);
      this.#byDevice.delete(p.deviceCodeHash);
    }
  }
}

/** Binds an unbound pairing to `workspaceId`; false when it is bound to another (rule pairing-bound-to-first-workspace). */
export function claimPairing(pairing: Pairing, workspaceId: string): boolean {
  pairing.workspaceId ??= workspaceId;
  return pairing.workspaceId === workspaceId;
}

/**
 * Approval by a signed-in person (rules pairing-approval-owner-only, pairing-grant-only-narrower,
 * pairing-company-wide*, pairing-admin-needs-website). Mutates `ws` (run inside a transaction) and returns
 * what the next poll will hand out.
 */
export function approvePairing(ws: WorkspaceDoc, pairing: Pairing, input: { userId: string; websiteId: string | null; scopes: string[] }, now: Date) {
  if (!claimPairing(pairing, ws.id)) throw new DomainError('not_found', 'That code is unknown, used or expired.');
  if (pairing.status !== 'pending') throw new DomainError('conflict', `This pairing is ${pairing.status}.`);
  const granted = input.scopes.filter((s) => pairing.requested.includes(s)); // never wider than asked
  if (input.websiteId === null && pairing.admin) throw new DomainError('validation_failed', 'The admin variant needs a website; company-wide approval is refused.');
  checkOwnerOf(ws, input.userId, input.websiteId, {
    companyWide: 'Only the company owner can approve a company-wide pairing.',
    noSite: () => 'No such website.',
    notOwner: 'Only an owner of this website can approve a pairing.',
  });
  if (input.websiteId === null && Object.keys(ws.sites).length > 0) throw new DomainError('validation_failed', 'This company has a website: choose which website the pairing is for.');
  if (pairing.readOnly) {
    if (input.websiteId === null) throw new DomainError('validation_failed', 'A read-only pairing needs a website.');
    const token = `smcp_deliver_${randomBytes(32).toString('base64url')}`;
    const site = ws.sites[input.websiteId]!;
    site.deliveryTokens.push({ tokenHash: hash(token), prefix: token.slice(0, 17), createdAt: now.toISOString() });
    pairing.status = 'approved';
    pairing.grant = { token, websiteId: input.websiteId, scopes: [], kind: 'delivery' };
    return { pairing, deliveryTokenHash: hash(token), connection: undefined };
  }
  const { connection, token } = createConnection(
    ws,
    { userId: input.userId, websiteId: input.websiteId, reach: input.websiteId === null ? 'workspace' : 'website', scopes: granted, kind: 'paired' },
    now,
  );
  pairing.status = 'approved';
  pairing.grant = { token, websiteId: input.websiteId, scopes: connection.scopes, kind: 'connection' };
  return { pairing, connection, deliveryTokenHash: undefined };
}
