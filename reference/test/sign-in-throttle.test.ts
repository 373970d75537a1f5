// Failed sign-ins are throttled per account and per client address (rules sign-in-throttled-per-account,
// sign-in-throttled-per-address). Loopback is all of 127.0.0.0/8 on Linux, so requests sent from 127.0.0.2,
// 127.0.0.3, … reach the server from genuinely different socket addresses without any test hook.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { limits } from '../runtime.js';
import { normalizeAddress } from '../http/app/client-address.js';
import { FixturesClient, type WorldResponse } from '../../conformance/lib/fixtures-client.js';

let server: RunningServer;
let dir: string;
let world: WorldResponse;
const { perAccount, perAddress } = limits.signIn;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-signin-throttle-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, fixturesSecret: 'test-secret', allowedHosts: [] });
  world = await new FixturesClient(server.url, 'test-secret').world({
    users: [{ key: 'olive' }, { key: 'pat' }, { key: 'quinn' }, { key: 'rosa' }],
    sites: [{ key: 'main', members: { olive: 'owner' } }],
  });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Answer { status: number; retryAfter: string | undefined; body: string }

/** POST /app/sign-in from the given loopback address. */
function signIn(from: string, email: string, password: string): Promise<Answer> {
  const url = new URL('/app/sign-in', server.url);
  const body = new URLSearchParams({ email, password, next: '/app/' }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('sign-in request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

function expectThrottled(answer: Answer): void {
  expect(answer.status).toBe(429);
  const seconds = Number(answer.retryAfter);
  expect(Number.isInteger(seconds) && seconds > 0).toBe(true);
  expect(answer.body).toMatch(/try again/i);
}

describe('sign-in throttle', () => {
  it('rule:sign-in-throttled-per-account — after the allowed failures even the right password is refused, from any address', async () => {
    const olive = world.users.olive!;
    for (let i = 0; i < perAccount.limit; i++) expect((await signIn('127.0.0.2', olive.email, `wrong-${i}`)).status).toBe(401);
    expectThrottled(await signIn('127.0.0.2', olive.email, olive.password));
    // The count belongs to the account, not to the address that made it.
    expectThrottled(await signIn('127.0.0.3', olive.email, olive.password));
    // Another account from another address is untouched.
    expect((await signIn('127.0.0.3', world.users.pat!.email, world.users.pat!.password)).status).toBe(302);
  }, 60_000);

  it('rule:sign-in-throttled-per-account — concurrent attempts cannot outrun the count', async () => {
    const quinn = world.users.quinn!;
    const answers = await Promise.all(Array.from({ length: perAccount.limit * 3 }, (_, i) => signIn('127.0.0.6', quinn.email, `wrong-${i}`)));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(perAccount.limit);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(perAccount.limit * 2);
    expectThrottled(await signIn('127.0.0.7', quinn.email, quinn.password));
  }, 60_000);

  it('rule:sign-in-throttled-per-address — failures across many emails from one address stop that address only', async () => {
    // One failure per email, so no single account reaches its own limit.
    for (let i = 0; i < perAddress.limit; i++) expect((await signIn('127.0.0.4', `guess-${i}@example.test`, 'wrong')).status).toBe(401);
    const rosa = world.users.rosa!;
    expectThrottled(await signIn('127.0.0.4', rosa.email, rosa.password));
    expect((await signIn('127.0.0.5', rosa.email, rosa.password)).status).toBe(302);
  }, 60_000);
});

describe('client address', () => {
  it('rule:sign-in-throttled-per-address — an IPv4-mapped address is its IPv4 address, an IPv6 address counts per /64', () => {
    expect(normalizeAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(normalizeAddress('192.0.2.7')).toBe('192.0.2.7');
    expect(normalizeAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
