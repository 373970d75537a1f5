// The client address that per-address throttles count against (rules sign-in-throttled-per-address,
// pair-start-throttled-per-address). app.proxy is false, so only the socket's peer address is trusted, never
// X-Forwarded-For. An IPv4-mapped IPv6 address counts as its IPv4 address, and IPv6 addresses count per /64,
// the block one subscriber usually holds, so rotating through one's own /64 does not reset the count.
import type { Context } from 'koa';
import { isIPv6 } from 'node:net';

export function clientAddress(ctx: Context): string {
  return normalizeAddress(ctx.req.socket.remoteAddress ?? '');
}

export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address || 'unknown';
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (a:b::1.2.3.4) sits past the first 64 bits, so it never changes the prefix.
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
