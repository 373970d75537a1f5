// The capped, SSRF-hardened fetcher used for import assets and site migration (rules
// import-site-assets-revalidated, migrate-ssrf-hardened). Every hop is re-validated: http(s) only, default
// ports only, the host must resolve to public unicast addresses only (ipaddr.js ranges), the connection is
// pinned to the address that was checked (no DNS-rebinding window), redirects are followed by hand and each
// target checked again, bodies are capped and time-bounded.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class UnsafeUrlError extends Error {}

export interface FetchResult { url: string; status: number; contentType: string; body: Buffer }

export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Resolves a hostname to addresses; injectable so tests need no network. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Performs one HTTP request to an already-checked address; injectable for tests. */
  transport?: (url: URL, address: string, options: { timeoutMs: number; maxBytes: number }) => Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>;
}

const defaultResolve = async (hostname: string) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Only globally routable unicast addresses pass: no loopback, private, link-local, CGNAT, multicast, reserved, … */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export async function checkUrl(raw: string, resolve: (h: string) => Promise<string[]>): Promise<{ url: URL; address: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrlError(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new UnsafeUrlError('credentials in URLs are not allowed');
  if (url.port && url.port !== '80' && url.port !== '443') throw new UnsafeUrlError('only the default ports are allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) throw new UnsafeUrlError('the host does not resolve');
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw new UnsafeUrlError(`the host resolves to a non-public address (${bad})`);
  return { url, address: addresses[0]! };
}

const defaultTransport: NonNullable<SafeFetchOptions['transport']> = (url, address, { timeoutMs, maxBytes }) =>
  new Promise((resolvePromise, reject) => {
    // Connect to the checked address only, while TLS and Host still use the name.
    const pinned: LookupFunction = (_host, _opts, cb) => cb(null, address, address.includes(':') ? 6 : 4);
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', lookup: pinned, timeout: timeoutMs, headers: { 'user-agent': 'site-mcp-import/0.1', accept: '*/*' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.destroy(new UnsafeUrlError(`response over ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new UnsafeUrlError('timed out')));
    req.on('error', reject);
    req.end();
  });

export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<FetchResult> {
  const resolve = options.resolve ?? defaultResolve;
  const transport = options.transport ?? defaultTransport;
  let current = raw;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    const { url, address } = await checkUrl(current, resolve);
    const res = await transport(url, address, { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes });
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      current = new URL(res.headers.location, url).href;
      continue;
    }
    return { url: url.href, status: res.status, contentType: res.headers['content-type'] ?? '', body: res.body };
  }
  throw new UnsafeUrlError('too many redirects');
}
