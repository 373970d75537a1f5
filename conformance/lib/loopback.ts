// Addresses of 127.0.0.0/8, all loopback on Linux: a client that sends from one of its own choosing makes a
// target's per-address counting (the throttles of spec/limits.json) see a new client.

/** A random address of 127.0.0.0/8 other than the network and broadcast ends. */
export const randomLoopback = (): string => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
