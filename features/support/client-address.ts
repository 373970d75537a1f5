// Which client address the kit's requests come from. Throttles per address are decisions
// (pair-start-throttled-per-address, sign-in-throttled-per-address), so the kit chooses its address where it can:
// to check a throttle from an address of its own, and so that its other scenarios never spend a target's allowance.
import type { SiteWorld } from './world.js';

/**
 * Whether the kit can pick its client address: only when the target is an IPv4 loopback literal, where every address
 * of 127.0.0.0/8 reaches it. A name such as localhost may resolve to ::1, which an IPv4 source cannot reach.
 */
export const kitChoosesAddress = (world: SiteWorld): boolean => /^127\.\d+\.\d+\.\d+$/.test(new URL(world.url).hostname);

/** A random address of 127.0.0.0/8 (all loopback on Linux), so every scenario counts against addresses of its own. */
export const randomLoopback = (): string => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
