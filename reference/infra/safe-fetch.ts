// The capped, SSRF-hardened fetcher used for import assets and site migration (rules
// import-site-assets-revalidated, migrate-ssrf-hardened). Every hop is re-validated: http(s) only, default
// ports only, the host must resolve to globally routable unicast addresses only, the connection is pinned to
// the addresses that were checked (no DNS-rebinding window), redirects are followed by hand and each target
// checked again, bodies are capped, and the whole fetch ends within its time however slowly the source sends
// (rule migrate-crawl-work-bounded).
import { Resolver } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class UnsafeUrlError extends Error {}

/** A fetch, or a step of its caller, that ran out of its time (rule migrate-crawl-work-bounded). */
export class OutOfTimeError extends UnsafeUrlError {}

export interface FetchResult { url: string; status: number; contentType: string; body: Buffer }

export interface TransportOptions {
  /** How long the request may take in all, connection and whole body included; `signal` may end it sooner. */
  timeoutMs: number;
  /** The fetch's own deadline: when it fires the request is destroyed, whatever is under way. */
  signal?: AbortSignal;
  maxBytes: number;
  /** Every address checkUrl validated for the host (`address` is the first); the connection may use only these. */
  addresses?: readonly string[];
  /**
   * TEST ONLY: the certificates (PEM) an https connection trusts instead of the system's, given by safeFetch only
   * for a URL of an `allowOrigins` origin when `allowCertificates` is set (see SafeFetchOptions).
   */
  ca?: readonly string[];
}

/** The answer's headers safeFetch reads: a redirect's target and the body's type. */
export type TransportHeaders = Pick<IncomingHttpHeaders, 'location' | 'content-type'>;

export interface SafeFetchOptions {
  maxBytes: number;
  /** The whole fetch, from the first lookup to the last byte of the last hop's body (rule migrate-crawl-work-bounded). */
  timeoutMs: number;
  maxRedirects: number;
  /** Resolves a hostname to addresses; injectable so tests need no network. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Performs one HTTP request to an already-checked address; injectable for tests. */
  transport?: (url: URL, address: string, options: TransportOptions) => Promise<{ status: number; headers: TransportHeaders; body: Buffer }>;
  /**
   * TEST ONLY — never set by production callers (import_site, migrate_site_from_url) nor by server config.
   * Origins such as `http://localhost:43123` whose URLs skip exactly two checks: the public-address check and
   * the default-port check, so a test can exercise the real path (the default resolver, which answers localhost
   * names itself, the pinned transport, per-hop redirect re-checks, caps) against a loopback server. Scheme and credential checks
   * still apply, and a redirect from an allowed origin to any other origin is checked normally
   * (rule migrate-ssrf-hardened).
   */
  allowOrigins?: readonly string[];
  /**
   * TEST ONLY, like allowOrigins (the fixtures protocol's fetch-allowlist-tls part, reference/testing/): PEM
   * certificates trusted for the https URLs of an allowOrigins origin and for nothing else, so the kit's loopback
   * website can serve https with its own test certificate. A URL of any other origin (a redirect off the allowed
   * one included) is verified against the system's trust as always (rule migrate-ssrf-hardened).
   */
  allowCertificates?: readonly string[];
}

/**
 * How imports and migrations reach the web (a service: reference/services.ts): the system resolver and real HTTP
 * unless `resolve`/`transport` replace them; `allowOrigins` is empty and `allowCertificates` absent in production.
 */
export type Network = Pick<SafeFetchOptions, 'resolve' | 'transport' | 'allowOrigins' | 'allowCertificates'>;

/**
 * A resolver asking DNS servers directly (c-ares): every A and AAAA address of a hostname, [] when it has none or
 * the servers do not answer within their time. Not getaddrinfo (dns.lookup): that holds one of libuv's four
 * threads, which the store's file reads and writes share, for as long as a slow name server keeps it, so a caller
 * naming hosts of a slow name server could stall every write of the server (rule migrate-crawl-work-bounded). Names
 * that only /etc/hosts knows are not found, as a public website's never is; localhost names are loopback without
 * asking (RFC 6761 6.3), so a test's loopback origin resolves and production refuses it as loopback.
 */
export function dnsResolve(servers?: readonly string[]): (hostname: string) => Promise<string[]> {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers) resolver.setServers([...servers]);
  return async (hostname) => {
    if (/(^|\.)localhost\.?$/i.test(hostname)) return ['127.0.0.1', '::1'];
    const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    return answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
  };
}

/** The system's resolver: the name servers of /etc/resolv.conf, asked as dnsResolve asks. */
export const systemResolve = dnsResolve();

// Rule migrate-ssrf-hardened: blocks that are not globally reachable or that embed an IPv4 address (which a
// gateway or the local stack may turn into a connection to that IPv4 address, e.g. [::127.0.0.1]). ipaddr.js
// 2.x already ranges most of these as non-unicast; they are listed here as well so a change in the library's
// tables cannot silently widen what we fetch, and because some (IPv4-compatible ::/96) it ranges `unicast`.
const IPV4_NOT_GLOBAL = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', // private
  '100.64.0.0/10', // CGNAT (also where some clouds put metadata, e.g. 100.100.100.200)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata 169.254.169.254
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes broadcast 255.255.255.255
].map((c) => ipaddr.IPv4.parseCIDR(c));
// Only 2000::/3 is global unicast; everything outside it (::/128, ::1, ::/96 IPv4-compatible, ::ffff:0:0/96
// IPv4-mapped, ::ffff:0:0:0/96 IPv4-translated, 64:ff9b::/96 and 64:ff9b:1::/48 NAT64, 100::/64 discard,
// fc00::/7 unique-local incl. fd00:ec2::254 metadata, fe80::/10 link-local, ff00::/8 multicast) is refused by
// that test alone. The special-purpose blocks inside 2000::/3 are listed here.
const IPV6_GLOBAL = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV6_NOT_GLOBAL = [
  '2001::/23', // IETF protocol assignments, includes Teredo 2001::/32 (embeds IPv4) and benchmarking 2001:2::/48
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4 (embeds IPv4)
  '2620:4f:8000::/48', // AS112
  '3fff::/20', // documentation
  // Outside 2000::/3 already, listed to make the IPv4-embedding refusal explicit:
  '::/96', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48',
].map((c) => ipaddr.IPv6.parseCIDR(c));

/**
 * Only globally routable unicast addresses pass: no loopback, private, link-local, CGNAT, multicast,
 * documentation, benchmarking, reserved, and no IPv6 address that embeds an IPv4 address
 * (rule migrate-ssrf-hardened).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  if (parsed instanceof ipaddr.IPv4) return !IPV4_NOT_GLOBAL.some((cidr) => parsed.match(cidr));
  return parsed.match(IPV6_GLOBAL) && !IPV6_NOT_GLOBAL.some((cidr) => parsed.match(cidr));
}

function originOf(raw: string): string | undefined {
  try {
    return new URL(raw).origin;
  } catch {
    return undefined;
  }
}

/**
 * Validates one URL (one hop) and returns the addresses to pin the connection to. `allowOrigins` is the
 * test-only allow-list described on SafeFetchOptions; production callers leave it out.
 */
export async function checkUrl(raw: string, resolve: (h: string) => Promise<string[]>, allowOrigins: readonly string[] = []): Promise<{ url: URL; address: string; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrlError(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new UnsafeUrlError('credentials in URLs are not allowed');
  const allowed = allowOrigins.some((o) => originOf(o) === url.origin);
  if (!allowed && url.port && url.port !== '80' && url.port !== '443') throw new UnsafeUrlError('only the default ports are allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A lookup that fails finds nothing; one that ran out of time says so.
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await resolve(host).catch((error: unknown) => {
        if (error instanceof OutOfTimeError) throw error;
        return [];
      });
  const [address] = addresses;
  if (address === undefined) throw new UnsafeUrlError('the host does not resolve');
  const bad = allowed ? undefined : addresses.find((a) => !isPublicAddress(a));
  if (bad) throw new UnsafeUrlError(`the host resolves to a non-public address (${bad})`);
  return { url, address, addresses };
}

const familyOf = (address: string) => (ipaddr.IPv6.isValid(address) ? 6 : 4);

// Agents of the fetcher's own, without a pool: Node's global agents go through a proxy named in the environment
// (NODE_USE_ENV_PROXY with HTTP(S)_PROXY), which would be sent the host name and look it up again, out of reach of the
// pinned lookup (rule migrate-ssrf-names-resolved).
const directHttp = new HttpAgent({ keepAlive: false });
const directHttps = new HttpsAgent({ keepAlive: false });

/** The error a fetch ends with when its time is up (rule migrate-crawl-work-bounded). */
const outOfTime = (timeoutMs: number) => new OutOfTimeError(`no whole answer within ${timeoutMs} ms`);

/** `work`, or a rejection with outOfTime as soon as `signal` fires, whichever comes first. */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  if (signal.aborted) return Promise.reject(outOfTime(timeoutMs));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(outOfTime(timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** One HTTP request to an address checkUrl validated, over a connection pinned to it: the transport unless one is given. */
export const httpTransport: NonNullable<SafeFetchOptions['transport']> = (url, address, { timeoutMs, signal, maxBytes, addresses, ca }) =>
  new Promise((resolvePromise, reject) => {
    // Connect to the checked addresses only, while TLS and Host still use the name. Node >= 20 calls lookup
    // with { all: true } (automatic family selection) and then expects [{ address, family }]; older call forms
    // expect (address, family). Answering the wrong form fails every fetch of a host name with
    // "Invalid IP address: undefined" (rules migrate-ssrf-hardened, import-site-assets-revalidated).
    const pinnedList = addresses && addresses.length > 0 ? addresses : [address];
    const pinned: LookupFunction = (_host, opts, cb) => {
      if (opts.all) cb(null, pinnedList.map((a) => ({ address: a, family: familyOf(a) })));
      else cb(null, address, familyOf(address));
    };
    // Settle once: an over-cap body must reject, never resolve with the truncated bytes (destroying the request
    // mid-body lets 'end' or a late error race the rejection) — rule import-site-assets-revalidated.
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    // The time counts from the start to the body's last byte: Node's own `timeout` is only for a silent socket, and a
    // source sending a byte every few seconds would never trip it (rule migrate-crawl-work-bounded).
    const deadline = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const https = url.protocol === 'https:';
    const req = (https ? httpsRequest : httpRequest)(url, { method: 'GET', agent: https ? directHttps : directHttp, lookup: pinned, ...(ca && url.protocol === 'https:' ? { ca: [...ca] } : {}), headers: { 'user-agent': 'site-mcp-import/0.1', accept: '*/*' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) {
          fail(new UnsafeUrlError(`response over ${maxBytes} bytes`));
          res.destroy();
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', fail);
      res.on('close', () => fail(new UnsafeUrlError('the response was cut off')));
    });
    const onDeadline = () => {
      fail(outOfTime(timeoutMs));
      req.destroy();
    };
    if (deadline.aborted) onDeadline();
    else deadline.addEventListener('abort', onDeadline, { once: true });
    req.on('close', () => deadline.removeEventListener('abort', onDeadline));
    req.on('error', fail);
    req.end();
  });

/**
 * `ms`, or what is left until `until` (epoch ms) when that is less; at least 1 ms, so a step past it fails at once:
 * the time of one step of a caller with a deadline (rules migrate-crawl-work-bounded, migrate-crawl-time-bounded).
 */
export const timeWithin = (ms: number, until: number | undefined): number => Math.max(1, Math.min(ms, (until ?? Infinity) - Date.now()));

/** `work`, or an OutOfTimeError once `ms` have passed, whichever comes first (a step of a caller with a deadline). */
export const withinTime = <T>(work: Promise<T>, ms: number): Promise<T> => beforeDeadline(work, AbortSignal.timeout(Math.max(1, ms)), Math.max(1, ms));

export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<FetchResult> {
  const { timeoutMs } = options;
  // One deadline for the whole fetch: every lookup, hop and body, whatever resolver or transport does the work.
  const signal = AbortSignal.timeout(timeoutMs);
  const lookup = options.resolve ?? systemResolve;
  const resolve = (hostname: string) => beforeDeadline(lookup(hostname), signal, timeoutMs);
  const transport = options.transport ?? httpTransport;
  let current = raw;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    // Every hop is checked again, with the same allow-list: a redirect off an allowed origin is a normal hop.
    const { url, address, addresses } = await checkUrl(current, resolve, options.allowOrigins);
    // The test-only trust goes with a hop of an allowed origin alone, checked hop by hop like the rest.
    const trusted = options.allowCertificates?.length && (options.allowOrigins ?? []).some((o) => originOf(o) === url.origin);
    const res = await beforeDeadline(transport(url, address, { timeoutMs, signal, maxBytes: options.maxBytes, addresses, ...(trusted ? { ca: options.allowCertificates } : {}) }), signal, timeoutMs);
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      try {
        current = new URL(res.headers.location, url).href;
      } catch {
        throw new UnsafeUrlError('the redirect target is not a valid URL');
      }
      continue;
    }
    return { url: url.href, status: res.status, contentType: res.headers['content-type'] ?? '', body: res.body };
  }
  throw new UnsafeUrlError('too many redirects');
}
