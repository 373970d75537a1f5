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
   * Key → its recent hits and the limit they were recorded under. Least recently hit first (a hit moves its key
   * to the end), so the keys evicted past `maxKeys` are the stalest. Only a recorded hit makes an entry: a
   * refused or only looked-at key (a sign-in for an e-mail nobody has, refused) adds nothing, and an entry whose
   * hits have all left their window is dropped when next looked at (rule memory-caller-keyed-maps-bounded).
   * A key at its limit (a locked account, a throttled address) is evicted last (rule limiter-keeps-locked-keys):
   * a flood of new keys must not make the server forget a lock.
   */
  #hits = new Map<string, { hits: number[]; limit: number }>();
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
    for (const { key, window } of keys) this.#record(key, window.limit, nowMs);
    return null;
  }

  #record(key: string, limit: number, nowMs: number): void {
    const hits = this.#hits.get(key)?.hits ?? [];
    hits.push(nowMs);
    this.#hits.delete(key);
    this.#hits.set(key, { hits, limit });
    if (this.#hits.size <= this.#maxKeys) return;
    // Past the bound the least recently hit key under its limit goes: at worst it counts afresh. Keys at their limit
    // are passed over (and moved to the end, so the next pass does not meet them first); only when every key is at
    // its limit does the stalest go anyway, so memory stays bounded.
    const passedOver: [string, { hits: number[]; limit: number }][] = [];
    for (const [stalest, entry] of this.#hits) {
      if (this.#hits.size <= this.#maxKeys) break;
      if (stalest === key) continue;
      if (entry.hits.length >= entry.limit) passedOver.push([stalest, entry]);
      else this.#hits.delete(stalest);
    }
    for (const [locked, entry] of passedOver) {
      this.#hits.delete(locked);
      if (this.#hits.size < this.#maxKeys) this.#hits.set(locked, entry);
    }
  }

  #prune(key: string, window: Window, nowMs: number): number[] {
    const hits = this.#hits.get(key)?.hits;
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
