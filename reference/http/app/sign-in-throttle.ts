// Throttle of failed sign-ins (rules sign-in-throttled-per-account, sign-in-throttled-per-address), counted in
// the runtime's shared sliding-window limiter under keys of their own. Only failures count, so an owner who
// signs in often is never locked out by their own successes. An attempt is admitted, or refused before any
// password is checked, by counting the failures already recorded plus the attempts still being checked: a
// burst of concurrent guesses cannot all pass the check before the first failure is recorded.
import type { SlidingWindowLimiter, Window } from '../../domain/rate-limit.js';

export interface SignInLimits {
  perAccount: Window;
  perAddress: Window;
}

// A key whose limit is 0 is always refused, so put last in a take() it makes the limiter record nothing: the
// take then only tells whether an earlier key is over its limit. The limiter has no read-only check of its own.
const PEEK_STOP = { key: 'sign-in:peek-stop', window: { limit: 0, windowSeconds: 1 } };

export class SignInThrottle {
  readonly #limiter: SlidingWindowLimiter;
  readonly #limits: SignInLimits;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, number>();

  constructor(limiter: SlidingWindowLimiter, limits: SignInLimits, now: () => number = Date.now) {
    this.#limiter = limiter;
    this.#limits = limits;
    this.#now = now;
  }

  /**
   * Admits one attempt for `email` from `address`, or answers how many seconds to wait. An admitted attempt
   * must be settled exactly once: `failed` records a failure against both keys.
   */
  admit(email: string, address: string): { retryAfterSeconds: number } | { settle(failed: boolean): void } {
    const nowMs = this.#now();
    const keys = [
      { key: `sign-in:account:${email.slice(0, 320)}`, window: this.#limits.perAccount },
      { key: `sign-in:address:${address}`, window: this.#limits.perAddress },
    ];
    for (const { key, window } of keys) {
      const room = window.limit - (this.#inFlight.get(key) ?? 0);
      const refused = this.#limiter.take([{ key, window: { limit: Math.max(0, room), windowSeconds: window.windowSeconds } }, PEEK_STOP], nowMs);
      if (refused && refused.refusedKey !== PEEK_STOP.key) {
        // With no failure recorded yet (only attempts in flight) the limiter has no oldest hit to count from.
        return { retryAfterSeconds: Number.isFinite(refused.retryAfterSeconds) ? refused.retryAfterSeconds : 1 };
      }
    }
    for (const { key } of keys) this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0) + 1);
    let settled = false;
    return {
      settle: (failed: boolean) => {
        if (settled) return;
        settled = true;
        for (const { key } of keys) {
          const left = (this.#inFlight.get(key) ?? 1) - 1;
          if (left > 0) this.#inFlight.set(key, left);
          else this.#inFlight.delete(key);
        }
        if (failed) this.#limiter.take(keys, this.#now());
      },
    };
  }
}
