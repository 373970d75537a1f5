// POST /v1/cli/pair/start is throttled per client address, and the pairings held in memory are capped (rules
// pair-start-throttled-per-address, pairings-in-memory-capped). Requests come from distinct loopback addresses
// (127.0.0.0/8 is all loopback on Linux) so the per-address count is observed from the real socket address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { Pairings } from '../domain/pairing.js';
import { postFrom, startTestServer, type TestServer } from './harness.js';

const pairStart = limits.pairStart;

let test: TestServer;

beforeAll(async () => {
  // No fixtures protocol: pairing is a public endpoint.
  test = await startTestServer('pairing-limits', {}, { fixtures: false });
});

afterAll(async () => {
  await test?.stop();
});

/** POST /v1/cli/pair/start from the given loopback address, its JSON answer parsed. */
async function start(from: string) {
  const answer = await postFrom(test.url, '/v1/cli/pair/start', from, 'application/json', JSON.stringify({ scopes: ['site:read'] }));
  return { ...answer, json: JSON.parse(answer.text) as { userCode?: string; error?: { code: string; message: string } } };
}

describe('pair/start limits', () => {
  it('rule:pair-start-throttled-per-address — one address gets its allowance, then 429 with Retry-After; another address is unaffected', async () => {
    for (let i = 0; i < pairStart.perAddress.limit; i++) expect((await start('127.0.0.2')).status).toBe(200);
    const refused = await start('127.0.0.2');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.json.error?.code).toBe('rate_limited');
    expect(refused.json.error?.message).toMatch(/retry after \d+ seconds/i);
    // It names what is counted, so the tool's user knows which allowance ran out.
    expect(refused.json.error?.message).toContain(`pairing starts from one address allows ${pairStart.perAddress.limit} per ${pairStart.perAddress.windowSeconds} seconds`);
    expect((await start('127.0.0.3')).status).toBe(200);
  }, 60_000);

  it('rule:pairings-in-memory-capped — when the configured number of pairings is held, a new start answers 503 with a clear error', async () => {
    // Fill the runtime's own store up to the cap directly: thousands of HTTP starts would need thousands of addresses.
    const held = test.server.parts.pairings;
    // One pairing from each of as many networks (rules pairings-capacity-per-address, pairings-capacity-per-network):
    // no address or network holds more than the newcomer's share, so none is pushed out to make room.
    for (let i = 0; i < pairStart.maxPending; i++) {
      try {
        held.start({ scopes: ['site:read'] }, Date.now(), `10.${i >> 8}.${i & 255}.1`);
      } catch {
        break; // already full (the earlier test's pairings count too)
      }
    }
    const refused = await start('127.0.0.4');
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.json.error?.code).toBe('pairing_capacity');
    expect(refused.json.error?.message).toMatch(/too many pairings/i);
  }, 60_000);

  it('rule:pairings-in-memory-capped — expired pairings are dropped first, so the cap frees up as they expire', () => {
    const pairings = new Pairings({ maxPending: 3 });
    const cap = pairings.start.bind(pairings);
    for (let i = 0; i < 3; i++) cap({ scopes: ['site:read'] }, 1_000 + i, `192.0.2.${i}`);
    expect(() => cap({ scopes: ['site:read'] }, 2_000, '192.0.2.9')).toThrow(/too many pairings/i);
    // Ten minutes later the first three have expired and make room.
    expect(() => cap({ scopes: ['site:read'] }, 1_000 + 10 * 60_000 + 5, '192.0.2.9')).not.toThrow();
  });
});
