// Sliding-window rate limits (§8): per connection, per workspace, and per-tool throttles, all configured by
// spec/limits.json. Counters live in memory: they protect this process, and a restart forgets at most one
// window. Times come from the workspace's clock (the clock service), so a window moves with that workspace's time.
import { DomainError } from './errors.js';

export interface Window {
  limit: number;
  windowSeconds: number;
}

export class SlidingWindowLimiter {
  /**
   * Key → its recent hits. Least recently hit first (a hit moves its key
   * to the end), so the keys evicted past `maxKeys` are the stalest. Only a recorded hit makes an entry: a
   * refused or only looked-at key (a sign-in for an e-mail nobody has, refused) adds nothing, and an entry whose
   * hits have all left their window is dropped when next looked at (rule memory-caller-keyed-maps-bounded).
   */
  #hits = new Map<string, number[]>();
  readonly #maxKeys: number;

  /** `maxKeys`: the most keys held (spec/limits.json memory.limiterKeys in the runtime). */
  constructor({ maxKeys = Number.POSITIVE_INFINITY }: { maxKeys?: number } = {}) {
    this.#maxKeys = maxKeys;
  }

  /** How many keys are held (tests). */
  get size(): number {
    return this.#hits.size;
  }

  /** Records a hit for every key, or none if any key is over its limit; returns the first key refused. */
  take(keys: { key: string; window: Window }[], nowMs: number): { refusedKey: string; retryAfterSeconds: number; window: Window } | null {
    for (const { key, window } of keys) {
      const hits = this.#prune(key, window, nowMs);
      if (hits.length >= window.limit) {
        // The oldest hit in the window leaves it first (none held only under a limit of 0: a whole window).
        const retryAfterMs = (hits[0] ?? nowMs) + window.windowSeconds * 1000 - nowMs;
        return { refusedKey: key, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)), window };
      }
    }
    for (const { key } of keys) this.#record(key, nowMs);
    return null;
  }

  #record(key: string, nowMs: number): void {
    const hits = this.#hits.get(key) ?? [];
    hits.push(nowMs);
    this.#hits.delete(key);
    this.#hits.set(key, hits);
    // Past the bound the least recently hit keys go: at worst a key that many others pushed out counts afresh.
    for (const stalest of this.#hits.keys()) {
      if (this.#hits.size <= this.#maxKeys) break;
      this.#hits.delete(stalest);
    }
  }

  #prune(key: string, window: Window, nowMs: number): number[] {
    const hits = this.#hits.get(key);
    if (!hits) return [];
    const from = nowMs - window.windowSeconds * 1000;
    // Hits are recorded in time order: the ones at or before `from` are a prefix.
    const kept = hits.findIndex((at) => at > from);
    const drop = kept < 0 ? hits.length : kept;
    if (drop > 0) hits.splice(0, drop);
    if (hits.length === 0) this.#hits.delete(key);
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
