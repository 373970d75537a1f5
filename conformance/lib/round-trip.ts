// How many scenarios a run keeps in flight when --parallel is not given: a run against a target is bound by its
// round trips, not by the kit's CPU, so a target far away gets more scenarios at once (each builds its own world, so
// they share the server without sharing state) and one on this machine keeps the two that suit a 2-core machine.
import { FixturesClient } from './fixtures-client.js';
import type { TargetAddress } from './prerequisites.js';

/** The shortest of three fixtures handshakes, in milliseconds: the target's round trip with the least queueing. */
export async function measureRoundTrip(target: TargetAddress): Promise<number> {
  const fixtures = new FixturesClient(target.url, target.fixturesSecret);
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await fixtures.handshake();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The parallelism for a round trip: 2 on this machine (under 5 ms), then one more per 8 ms, at most 8. */
export function parallelForRoundTrip(roundTripMs: number): number {
  if (roundTripMs < 5) return 2;
  return Math.min(8, 2 + Math.floor(roundTripMs / 8));
}
