// `npm run bench -- activity-flood [--calls N] [--names N] [--name-mb N] [--concurrency N]`: what one site:read token
// can make the activity log hold and what the Developers settings then cost (decisions
// activity-refusals-folded, activity-name-bounded, activity-read-newest-first). Sends N tools/call over HTTP
// (default 100,010: 120 answered, the rest rate_limited), then --names calls (default 20) naming a tool of
// --name-mb MB (default 4) from a second connection, and prints the log's growth per call and per line; then opens
// the Developers settings as the owner (median of 3) and prints its time, HTML size and the server's RSS growth.
// Before the fix (at 52c0590): 19 MB for 100,010 refused calls, 84 MB for 20 names, a page of 6 s and 84 MB.
// Goal: under 2 KB an entry, the page under 1 s.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, {
  options: {
    calls: { type: 'string', default: '100010' },
    names: { type: 'string', default: '20' },
    'name-mb': { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '50' },
  },
});
const calls = Number(values.calls);
const names = Number(values.names);
const nameBytes = Math.round(Number(values['name-mb']) * 1024 * 1024);
const concurrency = Number(values.concurrency);

const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-activity-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] }, testMode('bench'));

async function logOf(workspaceId: string): Promise<{ bytes: number; lines: number }> {
  await server.parts.activity.flush();
  const days = join(dir, 'activity', workspaceId);
  let bytes = 0;
  for (const f of await readdir(days).catch(() => [] as string[])) bytes += (await stat(join(days, f))).size;
  const lines = (await server.parts.activity.read(workspaceId, server.parts.clock.now(workspaceId))).length;
  return { bytes, lines };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

try {
  const fx = new FixturesClient(server.url, 'bench');
  const world = await fx.world({ users: [{ key: 'o' }], sites: [{ key: 'm', members: { o: 'owner' } }] });
  const websiteId = world.sites.m!.websiteId;
  const userId = world.users.o!.userId;
  const flooder = await fx.connection({ userId, websiteId, scopes: ['site:read'] });
  const namer = await fx.connection({ userId, websiteId, scopes: ['site:read'] });
  const post = (token: string, body: string) =>
    fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body }).then((r) => r.text());
  const call = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });

  const start = await logOf(world.workspaceId);
  const t0 = performance.now();
  let refused = 0;
  const listSites = call('list_sites');
  for (let done = 0; done < calls; done += concurrency) {
    const answers = await Promise.all(Array.from({ length: Math.min(concurrency, calls - done) }, () => post(flooder.token, listSites)));
    refused += answers.filter((a) => a.includes('rate_limited')).length;
  }
  const flooded = await logOf(world.workspaceId);
  const grown = flooded.bytes - start.bytes;
  console.log(
    `activity-flood: ${calls} calls of one site:read token in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${refused} refused: ` +
      `the log grew ${mb(grown)} in ${flooded.lines - start.lines} lines (${(grown / Math.max(1, flooded.lines - start.lines)).toFixed(0)} bytes a line, ${(grown / calls).toFixed(1)} bytes a call)`,
  );

  const bigName = call(`no_such_tool_${'x'.repeat(nameBytes)}`);
  for (let i = 0; i < names; i++) await post(namer.token, bigName);
  const named = await logOf(world.workspaceId);
  console.log(
    `  ${names} calls naming a ${(nameBytes / 1048576).toFixed(1)} MB tool: the log grew ${mb(named.bytes - flooded.bytes)} in ${named.lines - flooded.lines} lines ` +
      `(${((named.bytes - flooded.bytes) / Math.max(1, named.lines - flooded.lines)).toFixed(0)} bytes a line; goal: under 2,048)`,
  );

  const password = world.users.o!.password;
  const signIn = await fetch(`${server.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: world.users.o!.email, password, next: '/app/' }),
  });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
  const rss0 = process.memoryUsage().rss;
  const runs: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}/app/sites/${websiteId}/developers`, { headers: { cookie } });
    const html = await res.text();
    runs.push({ ms: performance.now() - t, bytes: Buffer.byteLength(html) });
  }
  const median = runs.map((r) => r.ms).sort((a, b) => a - b)[1]!;
  console.log(
    `  Developers settings with this log (${mb(named.bytes)}): ${median.toFixed(0)} ms (median of 3), ${mb(runs[0]!.bytes)} of HTML, ` +
      `RSS ${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB more (goal: under 1,000 ms)`,
  );
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
