// Throughput of one read tool call (list_sites) through the reference server's full path — bearer auth,
// rate limits, scope check, input validation, live role, output check, activity entry — against the SDK's
// stateless example (bench/sdk-stateless-baseline.ts) in the same run. Target (issue 3): at least 2x.
//
//   npm run bench -- mcp-throughput [--seconds 10] [--connections 20]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer } from '../reference/app.js';
import { buildWorld } from '../reference/domain/world.js';
import { createConnection } from '../reference/domain/connections.js';
import { registerConnection } from '../reference/domain/authenticate.js';
import { startBaseline } from './sdk-stateless-baseline.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } }, strict: false });
const duration = Number(values.seconds);
const connections = Number(values.connections);

const callBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: {} } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function measure(label: string, url: string, extraHeaders: Record<string, string>) {
  // Warm-up, then the measured run.
  await autocannon({ url, method: 'POST', body: callBody, headers: { ...headers, ...extraHeaders }, connections, duration: 2 });
  const result = await autocannon({ url, method: 'POST', body: callBody, headers: { ...headers, ...extraHeaders }, connections, duration });
  const ok = result['2xx'];
  const rps = ok / duration;
  console.log(`${label.padEnd(34)} ${rps.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`);
  return rps;
}

const dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-'));
const reference = await startServer({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  allowedHosts: [],
  // Limits high enough that every measured call takes the checked path and none is refused.
  rateLimitsOverride: { perConnection: { limit: 10_000_000, windowSeconds: 60 }, perWorkspace: { limit: 10_000_000, windowSeconds: 60 } },
});
const baseline = await startBaseline();
try {
  const world = await buildWorld(reference.rt.store, { users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] }, new Date());
  const { connection, token } = await reference.rt.store.transact(world.workspaceId, (ws) =>
    createConnection(ws, { userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId }, new Date()),
  );
  await registerConnection(reference.rt.store, connection, world.workspaceId);

  console.log(`list_sites over Streamable HTTP, ${connections} connections, ${duration}s each, node ${process.version}`);
  const base = await measure('SDK stateless example (baseline)', baseline.url, {});
  const ref = await measure('reference server (full path)', `${reference.url}/api/mcp`, { authorization: `Bearer ${token}` });
  console.log(`ratio reference/baseline: ${(ref / base).toFixed(2)}x (target >= 2.00x)`);
} finally {
  await baseline.close();
  await reference.close();
  await rm(dataDir, { recursive: true, force: true });
}
