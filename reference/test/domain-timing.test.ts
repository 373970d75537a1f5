// connect_domain answers another tenant's hostname exactly like one that does not exist, in content and in time
// (rules domain-other-site-same-as-missing, domain-foreign-hostname-same-time). The DNS server here answers every
// query after a fixed delay, standing in for a real resolver's round trip, so a path that skips the lookup shows.
// Timed with medians of a few alternating samples and a generous factor, so a loaded machine does not flake it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsStub } from '../../conformance/lib/dns-stub.js';
import type { McpConnection } from '../../conformance/lib/mcp-client.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

const DNS_DELAY_MS = 40;
const TAKEN = 'taken-by-other.example';

let test: TestServer;
let dns: Awaited<ReturnType<typeof startDnsStub>>;
let mine: McpConnection;
let theirs: McpConnection;

beforeAll(async () => {
  test = await startTestServer('domain-timing');
  // The suite's DNS stub, answering A for TAKEN and NXDOMAIN for anything else, every answer DNS_DELAY_MS late.
  await writeFile(join(test.dir, 'zone.json'), JSON.stringify([{ name: TAKEN, type: 'A', value: '192.0.2.1' }]));
  dns = await startDnsStub(test.dir, { delayMs: DNS_DELAY_MS });
  await test.fx.dnsResolver(dns.server);
  ({ mcp: mine } = await ownerWithConnection(test, ['domain:write']));
  ({ mcp: theirs } = await ownerWithConnection(test, ['domain:write']));
  // The other tenant connects the hostname first.
  const connected = await theirs.callTool('connect_domain', { hostname: TAKEN });
  expect(connected.envelope.ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await mine?.close();
  await theirs?.close();
  await dns?.stop();
  await test?.stop();
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
