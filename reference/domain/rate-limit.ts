// Sliding-window rate limits (§8): per connection, per workspace, and per-tool throttles, all configured by
// spec/limits.json. Counters live in memory: they protect this process, and a restart forgets at most one
// window. Times come from the workspace's clock (the clock service), so a window moves with that workspace's time.
import { DomainError } from './errors.js';

export interface Window {
  limit: number;
  windowSeconds: number;
}

export class SlidingWindowLimiter {
  #hits = new Map<string, number[]>();

  /** Records a hit for every key, or none if any key is over its limit; returns the first key refused. */
  take(keys: { key: string; window: Window }[], nowMs: number): { refusedKey: string; retryAfterSeconds: number; window: Window } | null {
    for (const { key, window } of keys) {
      const hits = this.#prune(key, window, nowMs);
      if (hits.length >= window.limit) {
        const retryAfterMs = hits[0]! + window.windowSeconds * 1000 - nowMs;
        return { refusedKey: key, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)), window };
      }
    }
    for (const { key } of keys) this.#hits.get(key)!.push(nowMs);
    return null;
  }

  #prune(key: string, window: Window, nowMs: number): number[] {
    let hits = this.#hits.get(key);
    if (!hits) {
      hits = [];
      this.#hits.set(key, hits);
    }
    const from = nowMs - window.windowSeconds * 1000;
    let drop = 0;
    while (drop < hits.length && hits[drop]! <= from) drop++;
    if (drop > 0) hits.splice(0, drop);
    return hits;
  }
}

export function rateLimited(what: string, refused: { retryAfterSeconds: number; window: Window }, code: 'rate_limited' | 'throttled' = 'rate_limited'): DomainError {
  return new DomainError(code, `Too many calls: ${what} allows ${refused.window.limit} per ${refused.window.windowSeconds} seconds. Retry after ${refused.retryAfterSeconds} seconds.`, {
    retryAfterSeconds: refused.retryAfterSeconds,
    limit: refused.window.limit,
    windowSeconds: refused.window.windowSeconds,
  });
}
