// `npm run bench -- hostile-body [--keys N]`: the cost of one tools/call whose arguments hold N keys (default
// 520,000, about 6 MB, just under the body cap). Such arguments are over the bounds of spec/limits.json
// toolArguments and are refused by the call path before the SDK parses the request (rule tool-arguments-bounded).
// Prints wall time and this process's CPU time per call (server and client share the process); goal: under
// 1 s (it was 2.2 s when the SDK's request parsing walked every key).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { keys: { type: 'string', default: '520000' }, runs: { type: 'string', default: '3' } } });
const keys = Number(values.keys);
const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-hostile-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] }, testMode('bench'));
try {
  const fx = new FixturesClient(server.url, 'bench');
  const world = await fx.world({ users: [{ key: 'o' }], sites: [{ key: 'm', members: { o: 'owner' } }] });
  const { token } = await fx.connection({ userId: world.users.o!.userId, websiteId: world.sites.m!.websiteId, scopes: ['site:read', 'content:write'] });
  const args = `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"import_site","arguments":${args}}}`;
  console.log(`hostile-body: ${keys} keys, ${(body.length / 1e6).toFixed(1)} MB per call`);
  for (let run = 0; run < Number(values.runs); run++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    const answer = await res.text();
    const cpu = process.cpuUsage(cpu0);
    const refused = answer.includes('validation_failed');
    console.log(`  run ${run + 1}: HTTP ${res.status}, ${refused ? 'refused as validation_failed' : 'NOT refused'}, ${Math.round(performance.now() - t0)} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU (goal: under 1,000 ms)`);
  }
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
