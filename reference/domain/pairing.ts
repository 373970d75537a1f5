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
  /** The client address that started it, while it is bound to no workspace (rule pairings-capacity-per-address). */
  address?: string;
}

/**
 * How many pairings one process holds (rules pairings-in-memory-capped, pairings-capacity-per-address,
 * pairings-capacity-per-owner): in all (memory), unbound ones per client address that started them, and bound, still
 * pending ones per workspace.
 */
export interface PairingCapacity {
  maxPending: number;
  maxPendingPerAddress: number;
  maxPendingPerOwner: number;
}

/**
 * The network a client address key (api/client-address.ts: IPv4, or an IPv6 /64 as `a:b:c:d::/64`) belongs to for
 * the pool's fairness: its IPv6 /48 or IPv4 /24, the blocks one holder commonly has.
 */
export function networkOf(address: string): string {
  const v6 = /^([0-9a-f]+):([0-9a-f]+):([0-9a-f]+):[0-9a-f]+::\/64$/i.exec(address);
  if (v6) return `${v6[1]}:${v6[2]}:${v6[3]}::/48`;
  const v4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(address);
  return v4 ? `${v4[1]}.0/24` : address;
}

/**
 * Refusal of a new pairing while the process already holds the most it will keep in memory (rule
 * pairings-in-memory-capped): without a cap, a flood of starts from many addresses grows memory without bound.
 */
function pairingsFull(retryAfterSeconds: number): DomainError {
  return new DomainError('pairing_capacity', `Too many pairings are waiting for approval right now. Retry after ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
}

const LIFETIME_MS = 10 * 60_000;
/**
 * How long a pairing whose story is over (denied, or its token handed out) is kept so its tool's next poll can still
 * tell what became of it, before it is forgotten (rule pairings-capacity-per-owner).
 */
export const DECIDED_KEPT_MS = 60_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

export class Pairings {
  #byUserCode = new Map<string, Pairing>();
  #byDevice = new Map<string, Pairing>();
  /** Pairings bound to no workspace yet, by the address that started them, oldest first. */
  #unboundByAddress = new Map<string, Set<Pairing>>();
  readonly #capacity: PairingCapacity;

  constructor(capacity: Partial<PairingCapacity> = {}) {
    const or = (value: number | undefined) => value ?? Number.POSITIVE_INFINITY;
    this.#capacity = { maxPending: or(capacity.maxPending), maxPendingPerAddress: or(capacity.maxPendingPerAddress), maxPendingPerOwner: or(capacity.maxPendingPerOwner) };
  }

  /**
   * Starts a pairing for a tool at `address`. Refused (pairing_capacity) when that address already holds its share of
   * unbound pairings; when the process holds its most, the oldest unbound pairing of the network (networkOf) holding
   * the most makes room if that network holds at least two more than the one of `address`, and otherwise the start
   * is refused. A
   * pairing bound to a workspace is never pushed out: a flood cannot take an owner's pairing that awaits approval.
   */
  start(input: { scopes: string[]; admin?: boolean; readOnly?: boolean }, nowMs = Date.now(), address = 'unknown') {
    const unknown = input.scopes.filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) throw new DomainError('validation_failed', `Unknown scopes: ${unknown.join(', ')}.`);
    this.#sweep(nowMs);
    const { maxPending, maxPendingPerAddress } = this.#capacity;
    const own = this.#unboundOf(address);
    if (own && own.size >= maxPendingPerAddress) {
      const wait = this.#secondsUntilFirstExpires(own, nowMs);
      throw new DomainError('pairing_capacity', `Too many pairings from this address are waiting for approval. Retry after ${wait} seconds.`, { retryAfterSeconds: wait });
    }
    // Every pairing still held counts, decided or not: each one is memory until it expires. Room is made by network
    // (an IPv6 /48, an IPv4 /24: what one holder can spread a flood over), not by address, so a flood from many
    // addresses of one network gives way to a newcomer from another (rule pairings-capacity-per-network).
    if (this.#byUserCode.size >= maxPending) {
      const byNetwork = new Map<string, Pairing[]>();
      for (const from of [...this.#unboundByAddress.keys()]) {
        const held = this.#unboundOf(from);
        if (held?.size) byNetwork.set(networkOf(from), [...(byNetwork.get(networkOf(from)) ?? []), ...held]);
      }
      let heaviest: Pairing[] = [];
      for (const held of byNetwork.values()) if (held.length > heaviest.length) heaviest = held;
      const ownNetwork = byNetwork.get(networkOf(address))?.length ?? 0;
      const oldest = heaviest.length >= ownNetwork + 2 ? heaviest.reduce((a, b) => (b.expiresAt < a.expiresAt ? b : a)) : undefined;
      if (!oldest) throw pairingsFull(this.#secondsUntilFirstExpires(this.#byUserCode.values(), nowMs));
      this.#drop(oldest);
    }
    const code = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    let userCode = '';
    do userCode = `${code().slice(0, 4)}-${code().slice(4)}`;
    while (this.#byUserCode.has(userCode));
    const deviceCode = randomBytes(32).toString('base64url');
    const pairing: Pairing = { userCode, deviceCodeHash: hash(deviceCode), requested: [...new Set(input.scopes)], admin: Boolean(input.admin), readOnly: Boolean(input.readOnly), status: 'pending', expiresAt: nowMs + LIFETIME_MS, address };
    this.#byUserCode.set(userCode, pairing);
    this.#byDevice.set(pairing.deviceCodeHash, pairing);
    const held = this.#unboundByAddress.get(address) ?? new Set<Pairing>();
    this.#unboundByAddress.set(address, held.add(pairing));
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
    if (!pairing) return undefined;
    this.bind(pairing, workspaceId, nowMs);
    return pairing.workspaceId === workspaceId ? pairing : undefined;
  }

  /**
   * Binds an unbound pairing to `workspaceId` (rule pairing-bound-to-first-workspace): it then counts for that
   * workspace, not for the address that started it, and is never pushed out. A workspace holds at most
   * maxPendingPerOwner bound pairings, decided or not, while the process holds them (rule pairings-capacity-per-owner):
   * a decided one is memory too, so a signed-in person who opens and denies codes in a loop cannot make the process
   * keep more than that for them. A decided one is kept DECIDED_KEPT_MS only. A pairing bound already is left as it is.
   */
  bind(pairing: Pairing, workspaceId: string, nowMs = Date.now()): void {
    if (pairing.workspaceId !== undefined) return;
    const bound = [...this.#byUserCode.values()].filter((held) => held.workspaceId === workspaceId);
    if (bound.length >= this.#capacity.maxPendingPerOwner) {
      const wait = this.#secondsUntilFirstExpires(bound, nowMs);
      throw new DomainError('pairing_capacity', `Your company already holds ${bound.length} pairings, the most it may: approve or deny the ones waiting, or retry after ${wait} seconds.`, { retryAfterSeconds: wait });
    }
    // It leaves its address's share at that address's next count (#unboundOf), as one bound by approvePairing does.
    pairing.workspaceId = workspaceId;
  }

  /** How many pairings are held, and for how many addresses unbound ones are counted (tests of the memory bound). */
  counts(nowMs = Date.now()): { pairings: number; addresses: number } {
    this.#sweep(nowMs);
    for (const address of [...this.#unboundByAddress.keys()]) this.#unboundOf(address);
    return { pairings: this.#byUserCode.size, addresses: this.#unboundByAddress.size };
  }

  /**
   * The poll: pending until decided; the token exactly once; then redeemed. An approval whose connection is not
   * stored yet (its grant is set only once the commit is done, api/pairing.ts) still reads as pending.
   */
  poll(deviceCode: string, nowMs = Date.now()) {
    this.#sweep(nowMs);
    const pairing = this.#byDevice.get(hash(deviceCode));
    if (!pairing) return { status: 'expired' as const };
    if (pairing.status === 'approved' && !pairing.grant) return { status: 'pending' as const };
    if (pairing.status === 'approved' && pairing.grant) {
      const grant = pairing.grant;
      pairing.grant = undefined;
      pairing.status = 'redeemed';
      this.#decided(pairing, nowMs);
      return { status: 'approved' as const, ...grant };
    }
    return { status: pairing.status };
  }

  deny(pairing: Pairing, nowMs = Date.now()): void {
    if (pairing.status !== 'pending') return;
    pairing.status = 'denied';
    this.#decided(pairing, nowMs);
  }

  /** A pairing whose story is over is kept DECIDED_KEPT_MS more at most, then swept. */
  #decided(pairing: Pairing, nowMs: number): void {
    pairing.expiresAt = Math.min(pairing.expiresAt, nowMs + DECIDED_KEPT_MS);
  }

  #sweep(nowMs: number): void {
    for (const p of this.#byUserCode.values()) if (p.expiresAt <= nowMs) this.#drop(p);
  }

  #drop(pairing: Pairing): void {
    this.#byUserCode.delete(pairing.userCode);
    this.#byDevice.delete(pairing.deviceCodeHash);
    this.#unbind(pairing);
  }

  #unbind(pairing: Pairing): void {
    if (pairing.address === undefined) return;
    const held = this.#unboundByAddress.get(pairing.address);
    held?.delete(pairing);
    if (held?.size === 0) this.#unboundByAddress.delete(pairing.address);
    pairing.address = undefined;
  }

  /** The unbound pairings `address` started; one bound elsewhere than through bind() (approvePairing) leaves here. */
  #unboundOf(address: string): Set<Pairing> | undefined {
    const held = this.#unboundByAddress.get(address);
    for (const pairing of held ?? []) if (pairing.workspaceId !== undefined) this.#unbind(pairing);
    return this.#unboundByAddress.get(address);
  }

  /** Seconds until the first of `pairings` to expire does; 1 for none. */
  #secondsUntilFirstExpires(pairings: Iterable<Pairing>, nowMs: number): number {
    // Not the oldest: a decided pairing is kept a shorter time (DECIDED_KEPT_MS).
    let first = Number.POSITIVE_INFINITY;
    for (const pairing of pairings) first = Math.min(first, pairing.expiresAt);
    return Number.isFinite(first) ? Math.max(1, Math.ceil((first - nowMs) / 1000)) : 1;
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
  const site = checkOwnerOf(ws, input.userId, input.websiteId, {
    companyWide: 'Only the company owner can approve a company-wide pairing.',
    noSite: () => 'No such website.',
    notOwner: 'Only an owner of this website can approve a pairing.',
  });
  if (input.websiteId === null && Object.keys(ws.sites).length > 0) throw new DomainError('validation_failed', 'This company has a website: choose which website the pairing is for.');
  if (pairing.readOnly) {
    // checkOwnerOf answers the site for a website id, and nothing without one.
    if (input.websiteId === null || !site) throw new DomainError('validation_failed', 'A read-only pairing needs a website.');
    const token = `smcp_deliver_${randomBytes(32).toString('base64url')}`;
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
