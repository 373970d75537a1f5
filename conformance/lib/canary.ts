// SSRF checks by canary (rules migrate-ssrf-hardened, import-site-assets-revalidated): the kit never hands a target
// a real non-public address to fetch, where a broken target would send a packet off this machine (a cloud's
// metadata service, a private network). It hands it URLs of listeners of its own on loopback instead, spelled every
// way a fetcher's address check can miss (IPv4-mapped IPv6, decimal, octal and hex IPv4, [::1]), each path naming
// its vector and the scenario, and it records every connection they receive. A correct target refuses them all and
// the canaries stay silent; a target that fetched one is caught by the hit, whatever it answered.
//
// The canaries listen on a random address of 127.0.0.0/8 (so two kit runs on one machine never share one), on ports
// 80 and 443, so a fetcher that allows only the default ports still reaches them once its address check is gone, and
// every canary URL is port-less. Where this process may not bind those ports (not root, no network namespace) the
// URLs stay the same loopback addresses, nobody listens, and the hits cannot be seen: the scenario's answer is
// still checked and the hit check is reported as not checked.
// Nothing a canary receives is printed: a hit names its vector, never a body.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomLoopback } from './local-address.js';
import { onlyLoopbackRouted } from './network.js';
import { TEST_WEBSITE_CERTIFICATE, TEST_WEBSITE_KEY } from './test-website.js';

/** Where the canaries listen: handed to the Cucumber workers in SITE_MCP_CANARY. */
export interface CanaryAddress {
  /** The IPv4 loopback address of the canaries, e.g. 127.83.21.7. */
  host: string;
  /** Whether the canaries listen on ports 80 and 443 of `host` (else their hits cannot be seen). */
  listening: boolean;
  /** Whether they listen on ports 80 and 443 of [::1] too. */
  ipv6Listening: boolean;
  /** The kit's own question, on a free port of 127.0.0.1: GET <control>/hits?since=<ms>. */
  control: string;
  /** The address a canary listens on for each class of non-public address a scenario names (ipaddr.js's range: private, linkLocal). */
  nonPublic?: Record<string, string>;
}

/** One connection a canary received: the request path when it could be read (plain http), else null. */
export interface CanaryHit { at: number; scheme: 'http' | 'https'; port: number; path: string | null }

/** The name the kit's DNS stub answers with the canary's address (an A record the run writes to its zone). */
export const CANARY_HOSTNAME = 'canary.site-mcp-kit.test';

/** The spellings of a canary URL, by vector name (what a hit or a scenario row names). */
export const CANARY_VECTORS = {
  /** The loopback address as it is. */
  'loopback': { scheme: 'http', spell: (a: CanaryAddress) => a.host },
  'loopback-https': { scheme: 'https', spell: (a: CanaryAddress) => a.host },
  /** IPv4-mapped IPv6, dotted and in hex (rule migrate-ssrf-hardened: an IPv6 address that embeds an IPv4 one). */
  'ipv4-mapped': { scheme: 'http', spell: (a: CanaryAddress) => `[::ffff:${a.host}]` },
  'ipv4-mapped-hex': { scheme: 'http', spell: (a: CanaryAddress) => `[::ffff:${hexPair(a.host)}]` },
  'ipv4-mapped-https': { scheme: 'https', spell: (a: CanaryAddress) => `[::ffff:${a.host}]` },
  /** One 32-bit decimal number, octal and hex parts: spellings a URL parser turns into the same address. */
  'decimal': { scheme: 'http', spell: (a: CanaryAddress) => String(octets(a.host).reduce((n, o) => n * 256 + o, 0)) },
  'octal': { scheme: 'http', spell: (a: CanaryAddress) => octets(a.host).map((o) => `0${o.toString(8)}`).join('.') },
  'hex': { scheme: 'http', spell: (a: CanaryAddress) => octets(a.host).map((o) => `0x${o.toString(16)}`).join('.') },
  /** IPv6 loopback, when the canaries listen there. */
  'ipv6-loopback': { scheme: 'http', spell: () => '[::1]' },
  /**
   * A host name the kit's DNS stub resolves to the canary (rule migrate-ssrf-names-resolved): sent only to a target
   * whose fetcher resolves through the stub (fixtures part fetch-resolver), never to one that would ask a real resolver.
   */
  'dns-name': { scheme: 'http', spell: () => CANARY_HOSTNAME },
} as const satisfies Record<string, { scheme: 'http' | 'https'; spell: (a: CanaryAddress) => string }>;

export type CanaryVector = keyof typeof CANARY_VECTORS;

const octets = (host: string) => host.split('.').map(Number);
const hexPair = (host: string) => {
  const [a, b, c, d] = octets(host) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

/** The path every canary URL has: the vector, then a token of the scenario's own. */
export const canaryPath = (vector: string, token: string) => `/canary/${vector}/${token}`;

/** The canary URL of `vector` for `token` (always on the scheme's default port). */
export function canaryUrl(address: CanaryAddress, vector: CanaryVector, token: string, file = 'x.png'): string {
  const { scheme, spell } = CANARY_VECTORS[vector];
  return `${scheme}://${spell(address)}${canaryPath(vector, token)}/${file}`;
}

/** Whether a hit of `vector` would be seen: its canary listens. */
export const canaryListens = (address: CanaryAddress, vector: CanaryVector) => (vector === 'ipv6-loopback' ? address.ipv6Listening : address.listening);

/** The vector a hit's path names, or null for a connection whose request could not be read. */
export function vectorOf(hit: CanaryHit): string | null {
  return hit.path ? (/^\/canary\/([^/]+)\//.exec(hit.path)?.[1] ?? hit.path) : null;
}

/** The canary address handed to this process by the run's set-up (SITE_MCP_CANARY), if any. */
export function canaryFromEnvironment(): CanaryAddress | undefined {
  const raw = process.env.SITE_MCP_CANARY;
  return raw ? (JSON.parse(raw) as CanaryAddress) : undefined;
}

/** The hits recorded at or after `since` (ms since the epoch), asked of the run's canaries. */
export async function canaryHits(address: CanaryAddress, since: number): Promise<CanaryHit[]> {
  const response = await fetch(`${address.control}/hits?since=${since}`, { signal: AbortSignal.timeout(5_000) });
  return (await response.json()) as CanaryHit[];
}

function listen(server: Server, port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const fail = () => resolve(undefined);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Binds a plain and a TLS listener on ports 80 and 443 of `host`; undefined where this process may not. */
async function bindPair(host: string, record: (scheme: 'http' | 'https', port: number, path: string | null) => void) {
  const plain = createServer((req, res) => {
    record('http', 80, new URL(req.url ?? '/', 'http://canary').pathname);
    res.writeHead(404, { connection: 'close' }).end();
  });
  const tls = createHttpsServer({ key: TEST_WEBSITE_KEY, cert: TEST_WEBSITE_CERTIFICATE }, (_req, res) => res.writeHead(404, { connection: 'close' }).end());
  // Every TCP connection to the TLS canary is a hit: a fetcher that does not trust its certificate never sends a
  // request, yet it connected to an address it must refuse.
  tls.on('connection', () => record('https', 443, null));
  plain.on('clientError', (_error, socket) => socket.destroy());
  tls.on('tlsClientError', () => undefined);
  if ((await listen(plain, 80, host)) === undefined) return undefined;
  if ((await listen(tls, 443, host)) === undefined) {
    plain.close();
    return undefined;
  }
  return [plain, tls];
}

export interface Canary { address: CanaryAddress; hits(since?: number): CanaryHit[]; stop(): Promise<void> }

/** Starts the run's canaries and their control listener; stop() closes every one. */
/**
 * Non-public addresses the scenarios send ({{non-public:…}}: a private network's, the cloud metadata service's), each
 * with a random address of its class. In a network namespace with only loopback (run-isolated.mjs) the kit adds one
 * of each class to `lo` and listens on it, so a target that fetches it is a hit, not merely a failed connection
 * (rule migrate-ssrf-hardened); the scenario then sends that address instead of the one it names. Random, so two
 * runs in one namespace (prove-checks' workers) never share one.
 */
const NON_PUBLIC_CLASSES: Record<string, () => string> = {
  /** A private network's address (ipaddr.js's range "private", RFC 1918's first block). */
  private: () => [10, byte(), byte(), 1 + (byte() % 254)].join('.'),
  /** A link-local address ("linkLocal", where the cloud metadata service lives). */
  linkLocal: () => [169, 254, 1 + (byte() % 254), 1 + (byte() % 254)].join('.'),
};
const byte = () => Math.floor(Math.random() * 256);

export async function startCanary(): Promise<Canary> {
  const hits: CanaryHit[] = [];
  // Bounded: a target flooding a canary is caught by its first hits; the rest are not kept.
  const record = (scheme: 'http' | 'https', port: number, path: string | null) => {
    if (hits.length < 1_000) hits.push({ at: Date.now(), scheme, port, path });
  };
  // A random 127/8 address where this machine lets the kit use one (Linux), else 127.0.0.1 (macOS).
  let host = randomLoopback();
  let v4 = await bindPair(host, record);
  if (!v4 && !(await usable(host))) {
    host = '127.0.0.1';
    v4 = await bindPair(host, record);
  }
  const v6 = await bindPair('::1', record);
  const servers = [...(v4 ?? []), ...(v6 ?? [])];
  const nonPublic: Record<string, string> = {};
  if (onlyLoopbackRouted()) {
    for (const [range, pick] of Object.entries(NON_PUBLIC_CLASSES)) {
      const address = pick();
      spawnSync('ip', ['address', 'add', `${address}/32`, 'dev', 'lo'], { stdio: 'ignore' });
      const pair = await bindPair(address, record);
      if (!pair) continue;
      servers.push(...pair);
      nonPublic[range] = address;
    }
  }
  const control = createServer((req, res) => {
    const since = Number(new URL(req.url ?? '/', 'http://control').searchParams.get('since') ?? 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hits.filter((h) => h.at >= since)));
  });
  const controlPort = await listen(control, 0, '127.0.0.1');
  if (controlPort === undefined) throw new Error('the kit could not listen on 127.0.0.1 for its SSRF canaries');
  servers.push(control);
  return {
    address: { host, listening: v4 !== undefined, ipv6Listening: v6 !== undefined, control: `http://127.0.0.1:${controlPort}`, nonPublic },
    hits: (since = 0) => hits.filter((h) => h.at >= since),
    stop: () =>
      Promise.all(
        servers.map((s) => new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        })),
      ).then(() => undefined),
  };
}

/** Whether a socket may use `host` at all (macOS has only 127.0.0.1 unless more are aliased). */
async function usable(host: string): Promise<boolean> {
  const probe = createServer();
  const port = await listen(probe, 0, host);
  if (port !== undefined) await new Promise((resolve) => probe.close(resolve));
  return port !== undefined;
}
