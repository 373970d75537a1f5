// Pairing capacity per starting address and per company instead of one server-wide pool (rules
// pairings-capacity-per-address, pairings-capacity-per-owner, pairings-in-memory-capped): with one pool, a few hundred
// addresses could fill it and every owner's CLI pairing would be refused until their pairings expired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { claimPairing, DECIDED_KEPT_MS, networkOf, Pairings } from '../domain/pairing.js';
import { DomainError } from '../domain/errors.js';
import { postFrom, startTestServer, type TestServer } from './harness.js';

const { maxPending, maxPendingPerAddress } = limits.pairStart;
let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('pairing-capacity', {}, { fixtures: false });
});
afterAll(async () => {
  await test?.stop();
});

const refusal = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('not refused');
};
const read = { scopes: ['site:read'] };

describe('pairing capacity', () => {
  it('rule:pairings-capacity-per-address — a flood that fills the pool from few addresses does not refuse a start from another address', async () => {
    // The reported flood: as many pairings as the pool holds, from addresses each holding their full share
    // (started in process: thousands of HTTP starts would need thousands of socket addresses).
    const held = test.server.parts.pairings;
    const floods = Math.ceil(maxPending / maxPendingPerAddress);
    const flooded: string[] = [];
    for (let a = 0; a < floods; a++) for (let i = 0; i < maxPendingPerAddress; i++) flooded.push(held.start(read, Date.now(), `198.51.100.${a}`).pairing.userCode);
    const answer = await postFrom(test.url, '/v1/cli/pair/start', '127.0.0.9', 'application/json', JSON.stringify(read));
    expect(answer.status, answer.text).toBe(200);
    // The room came from a flooding address: exactly one of its pairings is gone, the oldest.
    expect(held.find(flooded[0]!)).toBeUndefined();
    expect(held.find(flooded[1]!)).toBeDefined();
  }, 60_000);

  it('rule:pairings-capacity-per-address — one address holds at most its share of unbound pairings; another address is unaffected', () => {
    const pairings = new Pairings({ maxPending: 100, maxPendingPerAddress: 2 });
    pairings.start(read, 1_000, '192.0.2.1');
    pairings.start(read, 2_000, '192.0.2.1');
    const refused = refusal(() => pairings.start(read, 3_000, '192.0.2.1'));
    expect(refused.code).toBe('pairing_capacity');
    expect(refused.details).toEqual({ retryAfterSeconds: 598 });
    expect(refused.message).toMatch(/from this address/);
    expect(() => pairings.start(read, 3_000, '192.0.2.2')).not.toThrow();
    // A pairing bound to a company no longer counts for the address that started it.
    const third = pairings.start(read, 4_000, '192.0.2.3').pairing;
    pairings.start(read, 4_000, '192.0.2.3');
    pairings.bind(third, 'ws_owner');
    expect(() => pairings.start(read, 5_000, '192.0.2.3')).not.toThrow();
  });

  it('rule:pairings-capacity-per-address — when the pool is full, the oldest unbound pairing of the address holding most makes room; a bound one never does', () => {
    const pairings = new Pairings({ maxPending: 4, maxPendingPerAddress: 3 });
    const owners = pairings.start(read, 1_000, '192.0.2.7').pairing;
    pairings.bind(owners, 'ws_owner');
    const flood = [1, 2, 3].map((i) => pairings.start(read, 1_000 + i, '203.0.113.1').pairing);
    // Full: a newcomer takes the flooder's oldest, never the owner's bound pairing.
    pairings.start(read, 2_000, '192.0.3.8');
    expect(pairings.find(flood[0]!.userCode, 2_000)).toBeUndefined();
    expect(pairings.find(owners.userCode, 2_000)).toBe(owners);
    // Networks holding no more than the newcomer's share plus one are not pushed out: the pool refuses.
    pairings.start(read, 2_100, '192.0.4.9'); // takes flood[1]; now 192.0.2.7 (bound), flood[2], 192.0.3.8, 192.0.4.9
    expect(refusal(() => pairings.start(read, 2_200, '192.0.5.10')).message).toMatch(/too many pairings are waiting/i);
  });

  it('rule:pairings-capacity-per-network — a pool filled by one start from each of many addresses of one IPv6 /48 gives way to a newcomer from another network', () => {
    const pairings = new Pairings({ maxPending: 50, maxPendingPerAddress: 20 });
    // The finding: one start from each of many /64s of one /51 (keys as api/client-address.ts makes them).
    const flood = Array.from({ length: 50 }, (_, i) => pairings.start(read, 1_000 + i, `2001:db8:1000:${i.toString(16)}::/64`).pairing);
    expect(networkOf('2001:db8:1000:7::/64')).toBe('2001:db8:1000::/48');
    // Each /64 holds one; the network holds fifty: a newcomer from elsewhere takes the network's oldest.
    const newcomer = pairings.start(read, 2_000, '203.0.113.5').pairing;
    expect(pairings.find(newcomer.userCode, 2_000)).toBe(newcomer);
    expect(pairings.find(flood[0]!.userCode, 2_000)).toBeUndefined();
    expect(pairings.find(flood[1]!.userCode, 2_000)).toBeDefined();
    // IPv4 addresses of one /24 are one network too.
    const v4 = new Pairings({ maxPending: 10, maxPendingPerAddress: 20 });
    for (let i = 0; i < 10; i++) v4.start(read, 1_000 + i, `198.51.100.${i + 1}`);
    expect(() => v4.start(read, 2_000, '192.0.2.1')).not.toThrow();
  });

  it('rule:pairings-capacity-per-address — a pairing approved for a company frees its address\'s share; expired ones leave nothing behind', () => {
    const pairings = new Pairings({ maxPendingPerAddress: 1 });
    const first = pairings.start(read, 1_000, '192.0.2.20').pairing;
    expect(() => pairings.start(read, 1_000, '192.0.2.20')).toThrow(/from this address/);
    // Bound the way approvePairing binds it (claimPairing, its first step), not through bind().
    expect(claimPairing(first, 'ws_a')).toBe(true);
    expect(() => pairings.start(read, 1_000, '192.0.2.20')).not.toThrow();
    const [p21] = [21, 22, 23].map((i) => pairings.start(read, 2_000, `192.0.2.${i}`).pairing);
    expect(pairings.counts(2_000)).toEqual({ pairings: 5, addresses: 4 });
    // Bound, it is held still but counted for no address.
    pairings.bind(p21!, 'ws_b');
    expect(pairings.counts(2_000)).toEqual({ pairings: 5, addresses: 3 });
    expect(pairings.counts(2_000 + 10 * 60_000)).toEqual({ pairings: 0, addresses: 0 });
  });

  it('rule:pairings-capacity-per-owner — a company holds at most its share of bound pairings, decided or not', () => {
    const pairings = new Pairings({ maxPendingPerOwner: 2 });
    const [a, b, c] = [1, 2, 3].map((i) => pairings.start(read, 1_000, `192.0.2.${i}`).pairing);
    expect(pairings.findFor(a!.userCode, 'ws_1', 1_000)).toBe(a);
    expect(pairings.findFor(b!.userCode, 'ws_1', 1_000)).toBe(b);
    const full = refusal(() => pairings.findFor(c!.userCode, 'ws_1', 1_000));
    expect(full).toMatchObject({ code: 'pairing_capacity', details: { retryAfterSeconds: 600 } });
    expect(full.message).toMatch(/already holds 2 pairings/);
    // Another company is unaffected.
    expect(pairings.findFor(c!.userCode, 'ws_2', 1_000)).toBe(c);
    // A denied pairing is held DECIDED_KEPT_MS more, for its tool's poll, and keeps its place until then.
    pairings.deny(a!, 2_000);
    const d = pairings.start(read, 2_000, '192.0.2.4').pairing;
    expect(refusal(() => pairings.findFor(d.userCode, 'ws_1', 2_000))).toMatchObject({ code: 'pairing_capacity', details: { retryAfterSeconds: DECIDED_KEPT_MS / 1000 } });
    expect(pairings.findFor(d.userCode, 'ws_1', 2_000 + DECIDED_KEPT_MS)).toBe(d);
  });

  it('rule:pairings-capacity-per-owner — opening and denying codes in a loop holds no more than the share', () => {
    // The attack: one signed-in person starts a pairing from one of many addresses, opens its code and denies it,
    // again and again. Were denied pairings held, bound and never pushed out, for their whole lifetime, 5,000 of
    // them would refuse every start of every owner.
    const pairings = new Pairings({ maxPending: 1_000, maxPendingPerAddress: 5, maxPendingPerOwner: 3 });
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const { pairing } = pairings.start(read, 10_000, `198.51.100.${i}`);
      try {
        pairings.deny(pairings.findFor(pairing.userCode, 'ws_attacker', 10_000)!, 10_000);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'pairing_capacity') throw error;
        refused++;
      }
    }
    // Three were bound and denied; every later code could not be opened by that company (it stays unbound, at its
    // address's share, and may be pushed out by a flood).
    expect(refused).toBe(197);
    // Another company binds as before; a minute later the three denied ones are gone and the first company may again.
    const other = pairings.start(read, 10_000, '203.0.113.1').pairing;
    expect(pairings.findFor(other.userCode, 'ws_other', 10_000)).toBe(other);
    const later = pairings.start(read, 10_000, '203.0.113.2').pairing;
    expect(pairings.findFor(later.userCode, 'ws_attacker', 10_000 + DECIDED_KEPT_MS)).toBe(later);
  });
});
