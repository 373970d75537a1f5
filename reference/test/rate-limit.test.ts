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
});
