// Which client address the kit's requests come from. Throttles per address are decisions
// (pair-start-throttled-per-address, sign-in-throttled-per-address), so the kit chooses its address where it can:
// to check a throttle from an address of its own, and so that its other scenarios never spend a target's allowance.
import { createServer } from 'node:net';
import { randomLoopback } from '../../conformance/lib/local-address.js';
import type { SiteWorld } from './world.js';

export { randomLoopback };

let anyLoopback: Promise<boolean> | undefined;

/**
 * Whether this machine lets a socket use any address of 127.0.0.0/8: Linux does, while macOS has only 127.0.0.1
 * unless more are aliased. Probed once, by binding a listener to a random one.
 */
function anyLoopbackUsable(): Promise<boolean> {
  anyLoopback ??= new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, randomLoopback(), () => probe.close(() => resolve(true)));
  });
  return anyLoopback;
}

/**
 * Whether the kit can pick its client address: only when the target is an IPv4 loopback literal, where every address
 * of 127.0.0.0/8 reaches it (a name such as localhost may resolve to ::1, which an IPv4 source cannot reach), and
 * this machine lets the kit use those addresses.
 */
export async function kitChoosesAddress(world: SiteWorld): Promise<boolean> {
  return /^127\.\d+\.\d+\.\d+$/.test(new URL(world.url).hostname) && (await anyLoopbackUsable());
}
