// The client address that per-address throttles count against (rules sign-in-throttled-per-address,
// pair-start-throttled-per-address, oauth-registration-throttled-per-address, …; rule client-address-behind-proxy).
// Koa's own proxy setting stays off: only the socket's peer is trusted, unless the server was told which peers are
// its reverse proxies (--trust-proxy): a request from one of them is counted for the right-most address of its
// X-Forwarded-For that is not a trusted proxy too, the client that proxy saw (each proxy appends the address it
// received from; anything left of the first untrusted hop is the client's to write). An IPv4-mapped IPv6 address
// counts as its IPv4 address, and IPv6 addresses count per /64, the block one subscriber usually holds, so rotating
// through one's own /64 does not reset the count.
import type { Context, Middleware } from 'koa';
import ipaddr from 'ipaddr.js';
import { isIPv6 } from 'node:net';

/** Peers whose X-Forwarded-For is believed: addresses and CIDR ranges, parsed once. */
export type TrustedProxies = [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** Parses --trust-proxy values (an address or a CIDR range each); throws a sentence naming the first that is neither. */
export function parseTrustedProxies(values: readonly string[]): TrustedProxies {
  return values.map((value) => {
    try {
      if (value.includes('/')) return ipaddr.parseCIDR(value);
      const address = ipaddr.parse(value);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    } catch {
      throw new Error(`--trust-proxy takes an address or a CIDR range, e.g. 10.0.0.5 or 10.0.0.0/8, got ${JSON.stringify(value)}`);
    }
  });
}

function trusted(address: string, proxies: TrustedProxies): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return proxies.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

const ADDRESS_STATE = 'clientAddress';

/**
 * Sets the request's client address once, before any route: the socket's peer, or, when that peer is a trusted
 * proxy, the right-most X-Forwarded-For hop that is not one (a hop that is no address ends the walk at the last
 * address before it).
 */
export function clientAddressMiddleware(proxies: TrustedProxies): Middleware {
  return async (ctx, next) => {
    let address = ctx.req.socket.remoteAddress ?? '';
    if (proxies.length && trusted(address, proxies)) {
      const hops = ctx.get('x-forwarded-for').split(',').map((h) => h.trim()).filter(Boolean);
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = hops[i]!.replace(/^\[|\]$/g, '');
        if (!ipaddr.isValid(hop)) break;
        address = hop;
        if (!trusted(hop, proxies)) break;
      }
    }
    ctx.state[ADDRESS_STATE] = normalizeAddress(address);
    await next();
  };
}

export function clientAddress(ctx: Context): string {
  const set = ctx.state?.[ADDRESS_STATE];
  return typeof set === 'string' ? set : normalizeAddress(ctx.req.socket.remoteAddress ?? '');
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
