// rule:kit-no-packet-off-machine — the kit checks SSRF hardening without ever making a target fetch a real
// non-public address where a broken target's fetch could leave the machine: the suite names none outside a
// {{non-public:…}} placeholder, each canary spelling reaches the kit's own loopback listener (a fetcher without an
// address check is caught by name), and run-isolated.mjs leaves a command nothing but loopback.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Resolver } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { get as httpGet } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_HOSTNAME, CANARY_VECTORS, canaryUrl, startCanary, vectorOf, type Canary, type CanaryVector } from '../lib/canary.js';
import { startDnsStub, writeZoneRecords } from '../lib/dns-stub.js';
import { nonPublicAddressesRefused, onlyLoopbackRouted } from '../lib/network.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** Every file below `dir` whose name ends with one of `endings`. */
function filesBelow(dir: string, endings: string[]): string[] {
  return readdirSync(join(repo, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && endings.some((end) => e.name.endsWith(end)))
    .map((e) => join(e.parentPath, e.name));
}

/** IP literals of a text that are not loopback (v4 dotted quads and bracketed v6), outside {{non-public:…}}. */
function nonLoopbackLiterals(text: string): string[] {
  const outside = text.replace(/\{\{non-public:[^}]*\}\}/g, '');
  const found: string[] = [];
  for (const [literal] of outside.matchAll(/(?<![\w.:])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])/g)) {
    if (ipaddr.IPv4.isValidFourPartDecimal(literal) && ipaddr.parse(literal).range() !== 'loopback') found.push(literal);
  }
  for (const [, literal] of outside.matchAll(/\[([0-9a-fA-F:.]+)\]/g)) {
    if (!literal!.includes(':') || !ipaddr.isValid(literal!)) continue;
    const parsed = ipaddr.parse(literal!) as ipaddr.IPv6;
    const v4 = parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : undefined;
    if (parsed.range() !== 'loopback' && v4?.range() !== 'loopback') found.push(literal!);
  }
  return found;
}

describe('rule:kit-no-packet-off-machine — no packet leaves the machine', () => {
  it('no feature, step, support file or property names a non-loopback address a target could be made to fetch', () => {
    const files = [
      ...filesBelow('features', ['.feature', '.ts']),
      ...filesBelow('conformance/properties', ['.ts']),
      ...filesBelow('conformance/lib', ['.ts']),
    ];
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) => nonLoopbackLiterals(readFileSync(file, 'utf8')).map((a) => `${relative(repo, file)}: ${a}`));
    expect(offenders).toEqual([]);
  });

  it('the scan itself finds a metadata address, a private one and a mapped one, and passes loopback and placeholders', () => {
    expect(nonLoopbackLiterals('"url": "http://169.254.169.254/latest/" http://10.0.0.8/ https://[::ffff:10.0.0.1]/')).toEqual(['169.254.169.254', '10.0.0.8', '::ffff:10.0.0.1']);
    expect(nonLoopbackLiterals('http://127.0.0.1/ http://[::1]/ http://[::ffff:127.0.0.1]/ http://{{non-public:10.0.0.8}}/ version 1.2.3')).toEqual([]);
  });

  it('a real non-public address is sent only with the opt-in or where only loopback is routed and the target is on it', () => {
    const before = process.env.SITE_MCP_SEND_NON_PUBLIC;
    try {
      delete process.env.SITE_MCP_SEND_NON_PUBLIC;
      expect(nonPublicAddressesRefused('https://staging.example.com')).toBeTypeOf('string');
      expect(nonPublicAddressesRefused('http://127.0.0.1:3000') === undefined).toBe(onlyLoopbackRouted());
      process.env.SITE_MCP_SEND_NON_PUBLIC = '1';
      expect(nonPublicAddressesRefused('https://staging.example.com')).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.SITE_MCP_SEND_NON_PUBLIC;
      else process.env.SITE_MCP_SEND_NON_PUBLIC = before;
    }
  });

  it('run-isolated.mjs gives its command nothing but loopback where this machine allows a namespace', () => {
    const run = spawnSync(process.execPath, [join(repo, 'conformance/lib/run-isolated.mjs'), 'sh', '-c', 'cat /proc/net/route /proc/net/ipv6_route; echo "isolated=$SITE_MCP_NET_ISOLATED"; exit 7'], { encoding: 'utf8', env: { ...process.env, SITE_MCP_NET_ISOLATED: '' } });
    expect(run.status).toBe(7); // the command's own exit code
    if (run.stderr.includes('running without network isolation')) {
      expect(run.stdout).not.toContain('isolated=1');
      return;
    }
    expect(run.stdout).toContain('isolated=1');
    const devices = run.stdout.split('\n').filter((l) => l && !l.startsWith('Iface') && !l.startsWith('isolated')).map((l) => l.trim().split(/\s+/)).map((cols) => (cols.length === 10 ? cols[9] : cols[0])) // ipv6_route: 10 columns, the device last; route: the device first;
    expect(devices.filter((d) => d !== 'lo')).toEqual([]);
  });
});

describe('rule:kit-no-packet-off-machine — a run that starts its own server isolates itself', () => {
  it('without --url the kit runs in a namespace of loopback alone, so the rows with real non-public addresses run', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'site-mcp-self-isolated-'));
    try {
      // As a user runs it: not already isolated (npm test's namespace is left out), no opt-in to send the addresses.
      const { SITE_MCP_SEND_NON_PUBLIC: _, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--import', 'tsx/esm', 'conformance/cli.ts', '--protocol', '2025-11-25', '--rules', 'migrate-ssrf-hardened', '--name', 'however they are spelled', '--report-dir', reports], { cwd: repo, encoding: 'utf8', env: { ...env, NODE_OPTIONS: '', SITE_MCP_NET_ISOLATED: '' }, timeout: 120_000 });
      expect(run.status, run.stdout.slice(-2000) + run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as { scenarios: { status: string; stoppedAt?: { reason: string } }[] };
      const nonPublic = report.scenarios.filter((sc) => sc.stoppedAt?.reason.includes('non-public address'));
      if (run.stderr.includes('running without network isolation')) {
        expect(nonPublic.length).toBe(2);
        return;
      }
      expect(run.stdout).toMatch(/^conformance target .* · network: loopback alone \(a namespace of its own\)$/m);
      expect(nonPublic).toEqual([]);
    } finally {
      await rm(reports, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('rule:kit-no-packet-off-machine — the canaries catch a fetcher without an address check', () => {
  let canary: Canary;
  let zoneDir: string;
  let dns: { server: string; stop(): Promise<void> };
  /** The names a target with the fixtures part fetch-resolver resolves: at the kit's DNS stub, as a run sets it up. */
  const stub = new Resolver();
  beforeAll(async () => {
    canary = await startCanary();
    zoneDir = await mkdtemp(join(tmpdir(), 'site-mcp-canary-zone-'));
    dns = await startDnsStub(zoneDir);
    writeZoneRecords(zoneDir, [{ name: CANARY_HOSTNAME, type: 'A', value: canary.address.host }]);
    stub.setServers([dns.server]);
  });
  afterAll(async () => {
    await canary.stop();
    await dns.stop();
    await rm(zoneDir, { recursive: true, force: true });
  });
  const lookup: LookupFunction = (hostname, options, callback) => {
    stub.resolve4(hostname).then(
      (addresses) => (options.all ? callback(null, addresses.map((address) => ({ address, family: 4 }))) : callback(null, addresses[0]!, 4)),
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };

  /** A fetcher with no address check at all: it connects wherever the URL points (certificate not checked). */
  const fetchAnywhere = (url: string) =>
    new Promise<void>((resolve) => {
      const done = () => resolve();
      const req = url.startsWith('https:') ? httpsRequest(url, { rejectUnauthorized: false, lookup }, (res) => res.resume().on('end', done)) : httpGet(url, { lookup }, (res) => res.resume().on('end', done));
      req.on('error', done);
      req.setTimeout(3_000, () => req.destroy());
      req.end();
    });

  it('every vector spelled as the feature files use it reaches the canary and is named by its hit', async (context) => {
    if (!canary.address.listening) context.skip(); // not root and no namespace: run-isolated.mjs gives one
    const since = Date.now();
    const vectors = (Object.keys(CANARY_VECTORS) as CanaryVector[]).filter((v) => v !== 'ipv6-loopback' || canary.address.ipv6Listening);
    for (const vector of vectors) await fetchAnywhere(canaryUrl(canary.address, vector, 'scenario1'));
    const hits = canary.hits(since);
    const plain = vectors.filter((v) => CANARY_VECTORS[v].scheme === 'http');
    expect(new Set(hits.map(vectorOf).filter(Boolean))).toEqual(new Set(plain));
    // The TLS canaries are hit by connection, whatever the handshake gives.
    expect(hits.filter((h) => h.scheme === 'https').length).toBe(vectors.length - plain.length);
    // The URLs are port-less: a fetcher that allows only ports 80 and 443 still reaches them.
    for (const vector of vectors) expect(new URL(canaryUrl(canary.address, vector, 't')).port).toBe('');
  });

  it('where only loopback is routed, a private and a link-local address of the kit listen too, and a fetch there is a hit', async (context) => {
    if (!onlyLoopbackRouted() || !canary.address.listening) context.skip(); // outside run-isolated.mjs's namespace
    const nonPublic = canary.address.nonPublic ?? {};
    expect(Object.keys(nonPublic).sort()).toEqual(['linkLocal', 'private']);
    for (const [range, address] of Object.entries(nonPublic)) expect(ipaddr.parse(address).range()).toBe(range);
    const since = Date.now();
    for (const address of Object.values(nonPublic)) await fetchAnywhere(`http://${address}/latest/`);
    expect(canary.hits(since).map((h) => h.path)).toEqual(['/latest/', '/latest/']);
  });

  it('a fetcher that checks addresses refuses every spelling before it connects, and leaves no hit', async () => {
    const before = canary.hits().length;
    // What a correct fetcher does with each URL: the WHATWG parser turns every spelling into an address, a name is
    // judged by what it resolves to at the stub, and loopback (or an IPv6 address that embeds it) is refused, so
    // nothing connects.
    const refusedHere = async (url: string) => {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const address = ipaddr.isValid(host) ? host : (await stub.resolve4(host))[0]!;
      const parsed = ipaddr.parse(address);
      const v4 = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
      return v4.range() === 'loopback';
    };
    for (const vector of Object.keys(CANARY_VECTORS) as CanaryVector[]) {
      const url = canaryUrl(canary.address, vector, 'refused');
      expect(await refusedHere(url), `${vector}: ${url}`).toBe(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(canary.hits().length).toBe(before);
  });
});
