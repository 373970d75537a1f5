// connect_domain answers another tenant's hostname exactly like one that does not exist, in content and in time
// (rules domain-other-site-same-as-missing, domain-foreign-hostname-same-time). The DNS server here answers every
// query after a fixed delay, standing in for a real resolver's round trip, so a path that skips the lookup shows.
// Timed with medians of a few alternating samples and a generous factor, so a loaded machine does not flake it.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

const DNS_DELAY_MS = 40;
const TAKEN = 'taken-by-other.example';

let server: RunningServer;
let dir: string;
let fx: FixturesClient;
let mine: McpConnection;
let theirs: McpConnection;
const dns = createSocket('udp4');
const pending = new Set<NodeJS.Timeout>();

/** Answers A for TAKEN, NXDOMAIN for anything else, every answer DNS_DELAY_MS late. */
async function startSlowDns(): Promise<string> {
  dns.on('message', (message: Buffer, remote: RemoteInfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const known = question.name.toLowerCase().replace(/\.$/, '') === TAKEN;
    const answers = known && ['A', 'ANY'].includes(question.type as string) ? [{ type: 'A' as const, name: question.name, ttl: 5, class: 'IN' as const, data: '192.0.2.1' }] : [];
    const response = dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | (known ? 0 : 3), questions: query.questions, answers });
    const timer = setTimeout(() => {
      pending.delete(timer);
      dns.send(response, remote.port, remote.address);
    }, DNS_DELAY_MS);
    pending.add(timer);
  });
  await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
  return `127.0.0.1:${dns.address().port}`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-domain-timing-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, fixturesSecret: 'test-secret', allowedHosts: [] });
  fx = new FixturesClient(server.url, 'test-secret');
  await fx.dnsResolver(await startSlowDns());
  const a = await fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  const b = await fx.world({ users: [{ key: 'otto' }], sites: [{ key: 'main', members: { otto: 'owner' } }] });
  mine = new McpConnection(server.url, (await fx.connection({ userId: a.users.olive!.userId, websiteId: a.sites.main!.websiteId, scopes: ['domain:write'] })).token);
  theirs = new McpConnection(server.url, (await fx.connection({ userId: b.users.otto!.userId, websiteId: b.sites.main!.websiteId, scopes: ['domain:write'] })).token);
  // The other tenant connects the hostname first.
  const connected = await theirs.callTool('connect_domain', { hostname: TAKEN });
  expect(connected.envelope.ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await mine?.close();
  await theirs?.close();
  await server?.close();
  for (const timer of pending) clearTimeout(timer);
  await new Promise<void>((resolve) => dns.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

async function timedConnect(hostname: string) {
  const started = performance.now();
  const { envelope } = await mine.callTool('connect_domain', { hostname });
  return { ms: performance.now() - started, envelope };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('connect_domain timing', () => {
  it("rule:domain-foreign-hostname-same-time rule:domain-other-site-same-as-missing — another tenant's hostname takes about as long as an unknown one, with the same answer", async () => {
    const foreign: number[] = [];
    const missing: number[] = [];
    // 4 + 4 calls stay under the per-workspace connect_domain throttle (limits.json throttles.connect_domain).
    for (let i = 0; i < 4; i++) {
      const f = await timedConnect(TAKEN);
      const m = await timedConnect(`missing-${i}.example`);
      expect(f.envelope.error?.code).toBe('not_found');
      expect(m.envelope.error?.code).toBe('not_found');
      expect(f.envelope.error?.message.replace(TAKEN, 'HOST')).toBe(m.envelope.error?.message.replace(`missing-${i}.example`, 'HOST'));
      foreign.push(f.ms);
      missing.push(m.ms);
    }
    console.log(`connect_domain medians: other tenant's hostname ${median(foreign).toFixed(1)} ms, unknown hostname ${median(missing).toFixed(1)} ms`);
    expect(median(foreign)).toBeGreaterThanOrEqual(0.5 * median(missing));
    expect(median(missing)).toBeGreaterThanOrEqual(0.5 * median(foreign));
  }, 60_000);
});
