// Throttle of failed sign-ins (rules sign-in-throttled-per-account, sign-in-throttled-per-address,
// sign-in-known-address-admitted), counted in the runtime's shared sliding-window limiter under keys of their own.
// Only failures count, so an owner who signs in often is never locked out by their own successes. An account's
// failures lock it only for addresses it has not signed in from lately: an address with a recent successful sign-in
// to the account is counted on its own (account and address together), so someone who knows the owner's email
// cannot lock the owner out from where the owner signs in. An attempt is admitted, or refused before any
// password is checked, by counting the failures already recorded plus the attempts still being checked: a
// burst of concurrent guesses cannot all pass the check before the first failure is recorded.
import type { SlidingWindowLimiter, Window } from '../domain/rate-limit.js';

export interface SignInLimits {
  perAccount: Window;
  perAddress: Window;
  /** How long an address stays known to an account after a successful sign-in from it. */
  knownAddressSeconds: number;
}

// A key whose limit is 0 is always refused, so put last in a take() it makes the limiter record nothing: the
// take then only tells whether an earlier key is over its limit. The limiter has no read-only check of its own.
const PEEK_STOP = { key: 'sign-in:peek-stop', window: { limit: 0, windowSeconds: 1 } };

export class SignInThrottle {
  readonly #limiter: SlidingWindowLimiter;
  readonly #limits: SignInLimits;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, number>();
  /**
   * `email\naddress` → when it stops being known, oldest first (a success moves its entry to the end). Only a right
   * password adds an entry, so a caller without one cannot grow it.
   */
  readonly #known = new Map<string, number>();

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
    const account = email.slice(0, 320);
    const accountKey = { key: `sign-in:account:${account}`, window: this.#limits.perAccount };
    const pairKey = { key: `sign-in:account-address:${account}\n${address}`, window: this.#limits.perAccount };
    const addressKey = { key: `sign-in:address:${address}`, window: this.#limits.perAddress };
    // A known address answers to its own count for the account, not to the account's count from everywhere.
    const keys = [this.#isKnown(account, address, nowMs) ? pairKey : accountKey, addressKey];
    // Every failure counts against all three, so a known address that guesses is refused like any other.
    const counted = [accountKey, pairKey, addressKey];
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
        // One key at a time: take() records nothing when any key is full, and the account's count is usually
        // full already when a known address fails.
        if (failed) for (const key of counted) this.#limiter.take([key], this.#now());
      },
    };
  }

  /** Records a successful sign-in: `address` is known to the account for knownAddressSeconds. */
  succeeded(email: string, address: string): void {
    const nowMs = this.#now();
    const entry = `${email.slice(0, 320)}\n${address}`;
    this.#known.delete(entry);
    this.#known.set(entry, nowMs + this.#limits.knownAddressSeconds * 1000);
    for (const [key, until] of this.#known) {
      if (until > nowMs) break;
      this.#known.delete(key);
    }
  }

  #isKnown(account: string, address: string, nowMs: number): boolean {
    return (this.#known.get(`${account}\n${address}`) ?? 0) > nowMs;
  }
}
