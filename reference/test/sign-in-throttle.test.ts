// Failed sign-ins are throttled per account and per client address (rules sign-in-throttled-per-account,
// sign-in-throttled-per-address); an address the owner signed in from lately is not locked by failures from
// elsewhere (rule sign-in-known-address-admitted). Loopback is all of 127.0.0.0/8 on Linux, so requests sent
// from 127.0.0.2, 127.0.0.3, … reach the server from genuinely different socket addresses without any test hook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../catalogue.js';
import { normalizeAddress } from '../api/client-address.js';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { postFrom, startTestServer, type PostAnswer, type TestServer } from './harness.js';

let test: TestServer;
let world: WorldWithPasswords;
const { perAccount, perAddress } = limits.signIn;

beforeAll(async () => {
  test = await startTestServer('signin-throttle');
  world = await test.fx.world({
    users: [{ key: 'olive' }, { key: 'pat' }, { key: 'quinn' }, { key: 'rosa' }, { key: 'sid' }],
    sites: [{ key: 'main', members: { olive: 'owner' } }],
  });
});

afterAll(async () => {
  await test?.stop();
});

/** POST /app/sign-in from the given loopback address. */
const signIn = (from: string, email: string, password: string) =>
  postFrom(test.url, '/app/sign-in', from, 'application/x-www-form-urlencoded', new URLSearchParams({ email, password, next: '/app/' }).toString());

function expectThrottled(answer: PostAnswer): void {
  expect(answer.status).toBe(429);
  const seconds = Number(answer.retryAfter);
  expect(Number.isInteger(seconds) && seconds > 0).toBe(true);
  expect(answer.text).toMatch(/try again/i);
}

describe('sign-in throttle', () => {
  it('rule:sign-in-throttled-per-account — after the allowed failures even the right password is refused, from any address it has not signed in from', async () => {
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

  it('rule:sign-in-known-address-admitted — failures from elsewhere do not lock the owner out where they signed in before; failures from there do', async () => {
    const sid = world.users.sid!;
    const home = '127.0.0.8';
    expect((await signIn(home, sid.email, sid.password)).status).toBe(302);
    // Someone who knows the email fails from addresses of their own until the account is locked for them.
    for (let i = 0; i < perAccount.limit; i++) expect((await signIn(`127.0.1.${10 + i}`, sid.email, `wrong-${i}`)).status).toBe(401);
    expectThrottled(await signIn('127.0.1.99', sid.email, sid.password));
    expectThrottled(await signIn('127.0.1.10', sid.email, sid.password));
    // The owner, from where they signed in before, still gets in (rule sign-in-known-address-admitted).
    expect((await signIn(home, sid.email, sid.password)).status).toBe(302);
    // Guessing from that address is counted for it: past the account limit it is refused there too.
    for (let i = 0; i < perAccount.limit; i++) expect((await signIn(home, sid.email, `wrong-again-${i}`)).status).toBe(401);
    expectThrottled(await signIn(home, sid.email, sid.password));
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
