import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../domain/rate-limit.js';

describe('SlidingWindowLimiter', () => {
  const conn = { key: 'conn:c1', window: { limit: 3, windowSeconds: 60 } };
  const ws = { key: 'ws:w1', window: { limit: 4, windowSeconds: 60 } };

  it('rule:rate-limit-per-connection — refuses the call past the limit and says when to retry', () => {
    const limiter = new SlidingWindowLimiter();
    for (let i = 0; i < 3; i++) expect(limiter.take([conn], 1000 + i)).toBeNull();
    const refused = limiter.take([conn], 2000);
    expect(refused).toMatchObject({ refusedKey: 'conn:c1' });
    expect(refused!.retryAfterSeconds).toBe(59);
    expect(limiter.take([conn], 1000 + 60_000)).toBeNull();
  });

  it('rule:rate-limit-per-workspace — a refused call counts against no window', () => {
    const limiter = new SlidingWindowLimiter();
    const other = { key: 'conn:c2', window: conn.window };
    for (let i = 0; i < 3; i++) expect(limiter.take([conn, ws], i)).toBeNull();
    expect(limiter.take([conn, ws], 10)?.refusedKey).toBe('conn:c1');
    expect(limiter.take([other, ws], 11)).toBeNull();
    expect(limiter.take([other, ws], 12)?.refusedKey).toBe('ws:w1');
  });

  it('rule:limiter-keeps-locked-keys — a flood of new keys past the bound does not make it forget a key at its limit', () => {
    const limiter = new SlidingWindowLimiter({ maxKeys: 3 });
    const account = { key: 'sign-in:account:olive', window: { limit: 2, windowSeconds: 600 } };
    expect(limiter.take([account], 0)).toBeNull();
    expect(limiter.take([account], 1)).toBeNull();
    expect(limiter.take([account], 2)?.refusedKey).toBe(account.key);
    // Pair starts from 50 new addresses: the least recently hit keys go, but not the locked account.
    for (let i = 0; i < 50; i++) expect(limiter.take([{ key: `pair-start:address:${i}`, window: { limit: 20, windowSeconds: 60 } }], 10 + i)).toBeNull();
    expect(limiter.size).toBeLessThanOrEqual(3);
    expect(limiter.take([account], 100)?.refusedKey).toBe(account.key);
    // Memory stays bounded even when every key is at its limit: the stalest locked key goes then.
    const locked = (i: number) => ({ key: `locked:${i}`, window: { limit: 1, windowSeconds: 600 } });
    for (let i = 0; i < 10; i++) limiter.take([locked(i)], 200 + i);
    expect(limiter.size).toBeLessThanOrEqual(3);
    expect(limiter.take([locked(9)], 300)?.refusedKey).toBe('locked:9');
  });
});
