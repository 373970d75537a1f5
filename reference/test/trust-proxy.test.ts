// Rule client-address-behind-proxy: behind a reverse proxy every request comes from the proxy's address, so without
// --trust-proxy one client's failures throttle every other (20 wrong sign-ins locked the owner out; the next pairing
// start and registration were refused the same way). A server told its proxy counts each request for the client the
// proxy saw, the right-most X-Forwarded-For hop that is not a trusted proxy; a peer it was not told of cannot spoof
// the header. Pairing starts (20 a minute per address) stand for every per-address limit: they share clientAddress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { parseTrustedProxies } from '../api/client-address.js';
import { startTestServer, type TestServer } from './harness.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';

const { limit } = limits.pairStart.perAddress;
let behindProxy: TestServer;
let direct: TestServer;

beforeAll(async () => {
  behindProxy = await startTestServer('trust-proxy', { trustProxy: parseTrustedProxies(['127.73.0.0/24']) }, { fixtures: false });
  direct = await startTestServer('no-trust-proxy', {}, { fixtures: false });
});
afterAll(async () => {
  await behindProxy?.stop();
  await direct?.stop();
});

const start = (server: TestServer, from: string, forwardedFor?: string) =>
  postFromAddress(`${server.url}/v1/cli/pair/start`, from, { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) }, JSON.stringify({ scopes: ['site:read'] })).then((r) => r.status);

describe('rule:client-address-behind-proxy', () => {
  it('a trusted proxy\'s requests count for the client it names: one client at its limit does not refuse another', async () => {
    for (let i = 0; i < limit; i++) expect(await start(behindProxy, '127.73.0.1', '203.0.113.5')).toBe(200);
    expect(await start(behindProxy, '127.73.0.1', '203.0.113.5')).toBe(429);
    // Another client through the same proxy, and through a second proxy hop of the trusted range.
    expect(await start(behindProxy, '127.73.0.1', '198.51.100.7')).toBe(200);
    expect(await start(behindProxy, '127.73.0.2', '198.51.100.8, 127.73.0.9')).toBe(200);
    // What a client writes left of its own address changes nothing: the right-most untrusted hop is the one counted.
    expect(await start(behindProxy, '127.73.0.1', '192.0.2.1, 203.0.113.5')).toBe(429);
  });

  it('a peer that is not a trusted proxy cannot spoof X-Forwarded-For', async () => {
    for (let i = 0; i < limit; i++) expect(await start(behindProxy, '127.74.0.1', `192.0.2.${i + 1}`)).toBe(200);
    expect(await start(behindProxy, '127.74.0.1', '192.0.2.200')).toBe(429);
  });

  it('without --trust-proxy nothing changes: the header is ignored and the socket\'s peer is counted', async () => {
    for (let i = 0; i < limit; i++) expect(await start(direct, '127.73.0.1', `203.0.113.${i + 1}`)).toBe(200);
    expect(await start(direct, '127.73.0.1', '198.51.100.7')).toBe(429);
  });

  it('--trust-proxy values are addresses or CIDR ranges; anything else is one sentence', () => {
    expect(parseTrustedProxies(['10.0.0.5', '10.0.0.0/8', '::1', 'fd00::/8'])).toHaveLength(4);
    expect(() => parseTrustedProxies(['proxy.example'])).toThrow(/--trust-proxy takes an address or a CIDR range, .* got "proxy.example"/);
  });

  it('rule:pair-start-throttled-per-address — starts from the /64s of one IPv6 /48 are counted together too', async () => {
    const perNetwork = limits.pairStart.perNetwork!.limit;
    // Each /64 under its own limit, the /48 at its: a client the proxy names from a new /64 of it is refused.
    for (let i = 0; i < perNetwork; i++) expect(await start(behindProxy, '127.73.0.1', `2001:db8:51:${i.toString(16)}::1`)).toBe(200);
    expect(await start(behindProxy, '127.73.0.1', '2001:db8:51:ffff::1')).toBe(429);
    expect(await start(behindProxy, '127.73.0.1', '2001:db8:52:1::1')).toBe(200);
  });
});
