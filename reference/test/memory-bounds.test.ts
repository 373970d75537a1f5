// In-memory maps keyed by what a caller sends stay bounded (rule
// memory-caller-keyed-maps-bounded): otherwise every sign-in e-mail tried (even refused), every rate-limited key
// and every lookup that found nothing (GET /sites/<random id>, unknown tokens) stays in memory for the life of the
// process, until the heap runs out. These tests bound counts, not
// heap bytes, with a few hundred requests; the bounds are spec/limits.json memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../domain/rate-limit.js';
import { Store } from '../infra/store/store.js';
import { limits } from '../catalogue.js';
import { ownerWithConnection, postFrom, startTestServer, type TestServer } from './harness.js';

const window = { limit: 2, windowSeconds: 60 };

describe('the rate limiter\'s keys (rule memory-caller-keyed-maps-bounded)', () => {
  it('rule:memory-caller-keyed-maps-bounded — holds at most maxKeys keys, evicting the least recently hit', () => {
    const limiter = new SlidingWindowLimiter({ maxKeys: 100 });
    for (let i = 0; i < 5_000; i++) limiter.take([{ key: `address:${i}`, window }], 1000 + i);
    expect(limiter.size).toBe(100);
    // The most recent keys still count: the 2nd hit of the last key passes, its 3rd is refused.
    expect(limiter.take([{ key: 'address:4999', window }], 7000)).toBeNull();
    expect(limiter.take([{ key: 'address:4999', window }], 7001)?.refusedKey).toBe('address:4999');
  });

  it('rule:memory-caller-keyed-maps-bounded — a key only looked at or refused adds nothing, and an expired one is dropped', () => {
    const limiter = new SlidingWindowLimiter();
    const full = { key: 'address:full', window };
    limiter.take([full], 0);
    limiter.take([full], 1);
    // Refused by the first key: the e-mail tried second is never recorded.
    for (let i = 0; i < 1_000; i++) expect(limiter.take([full, { key: `email:${i}`, window }], 2 + i)).not.toBeNull();
    expect(limiter.size).toBe(1);
    expect(limiter.take([{ key: 'address:full', window: { limit: 0, windowSeconds: 1 } }], 61_000)).not.toBeNull();
    expect(limiter.size).toBe(0);
  });

  it('rule:memory-caller-keyed-maps-bounded — the runtime\'s limiter takes its bound from spec/limits.json memory.limiterKeys', () => {
    expect(limits.memory.limiterKeys).toBeGreaterThan(0);
  });
});

describe('the store\'s lookups that found nothing (rule memory-caller-keyed-maps-bounded)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-mcp-misses-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('rule:memory-caller-keyed-maps-bounded — remembers at most maxCachedMisses misses and still finds what is written later', async () => {
    const store = await Store.open(dir, {}, { maxCachedMisses: 50 });
    for (let i = 0; i < 1_000; i++) expect(await store.lookupDirectory('site', `site_random${i}`)).toBeUndefined();
    expect(store.cachedMisses).toBe(50);
    // A miss remembered, and one pushed out, are both found once written.
    await store.setDirectory('site', 'site_random999', 'ws_a');
    await store.setDirectory('site', 'site_random0', 'ws_b');
    expect(await store.lookupDirectory('site', 'site_random999')).toBe('ws_a');
    expect(await store.lookupDirectory('site', 'site_random0')).toBe('ws_b');
    expect(store.cachedMisses).toBe(49);
    expect(limits.memory.directoryMisses).toBeGreaterThan(0);
  });
});

describe('over HTTP, with no account (rule memory-caller-keyed-maps-bounded)', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('memory-bounds', {}, { fixtures: false });
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('rule:memory-caller-keyed-maps-bounded — sign-ins refused for one address add no key per e-mail tried', async () => {
    const parts = test.server.parts;
    const before = parts.limiter.size;
    const tries = limits.signIn.perAddress.limit + 200;
    for (let i = 0; i < tries; i++) {
      const body = new URLSearchParams({ email: `nobody-${i}@example.invalid`, password: 'wrong', next: '/app/' }).toString();
      await postFrom(test.url, '/app/sign-in', '127.0.0.11', 'application/x-www-form-urlencoded', body);
    }
    // Each counted failure is three keys (account, account and address, address); the 200 refused add none.
    expect(parts.limiter.size - before).toBeLessThanOrEqual(limits.signIn.perAddress.limit * 2 + 1);
  }, 60_000);
});

describe('the call path\'s counts (rules memory-caller-keyed-maps-bounded, rate-limit-per-connection)', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('memory-bounds-calls');
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('rule:rate-limit-per-connection — a flood of keys from requests without an account does not push a connection\'s count out', async () => {
    const { mcp } = await ownerWithConnection(test, ['site:read']);
    try {
      const { limit } = limits.rateLimits.perConnection;
      for (let done = 0; done < limit; done += 20) await Promise.all(Array.from({ length: Math.min(20, limit - done) }, () => mcp.callTool('list_sites')));
      // As many pair-start or sign-in keys as the caller-keyed limiter holds (each from another address, say).
      const window = { limit: 1, windowSeconds: 60 };
      for (let i = 0; i <= limits.memory.limiterKeys; i++) test.server.parts.limiter.take([{ key: `pair-start:address:2001:db8:${i.toString(16)}::`, window }], Date.now());
      expect((await mcp.callTool('list_sites')).envelope.error?.code).toBe('rate_limited');
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
