// A load test at the documented limits: the reference server with the §8 rate limits of
// spec/limits.json (120 calls a minute per connection, 600 per workspace) and 20 connections, each calling at its
// own limit for --duration seconds. Five connections share a workspace (5 × 120 = that workspace's 600), each on
// its own website, so a plan's pinned revision is not changed under it by another connection's edit.
// Each connection calls on a fixed schedule, one call every 60/120 s, in a cycle of nine slots: four reads
// (list_sites, get_site_overview, list_pages), three edits (update_section_text) and a plan flow in two slots
// (prepare_publish, the owner's approval through the fixtures protocol, confirm_pending_action). Printed: calls, p50/p99 latency (all, and per kind), rate-limit
// refusals (intended: the schedule runs at the limit, so a late call can meet a full window), errors (anything
// else that is not an { ok: true } answer: must be 0), and the server's RSS at the start, its peak and end.
//
//   npm run bench -- load [--duration 60] [--connections 20]
import { readFileSync } from 'node:fs';
import { loadLimits } from '../spec/index.js';
import { startReferenceServer } from '../conformance/lib/target.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { duration: { type: 'string', default: '60' }, connections: { type: 'string', default: '20' } } });
const durationS = Number(values.duration);
const connectionCount = Number(values.connections);
if (!(durationS > 0) || !Number.isInteger(connectionCount) || connectionCount < 1) {
  console.error('load: --duration takes a number of seconds above 0, --connections a whole number of at least 1.');
  process.exit(2);
}
const { perConnection, perWorkspace } = loadLimits().rateLimits;
const intervalMs = (perConnection.windowSeconds * 1000) / perConnection.limit;
const perWorkspaceConnections = Math.max(1, Math.floor(perWorkspace.limit / perConnection.limit));
const workspaceCount = Math.ceil(connectionCount / perWorkspaceConnections);
const CALL_TIMEOUT_MS = 30_000;

type Kind = 'read' | 'edit' | 'plan';
interface Sample { kind: Kind; ms: number }
const samples: Sample[] = [];
let refusals = 0;
const errors = new Map<string, number>();
const countError = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : NaN;
}

const server = await startReferenceServer();
const fx = new FixturesClient(server.url, server.fixturesSecret);
const endpoint = `${server.url}/api/mcp`;
let nextId = 1;

/** One tools/call; its envelope's data when it answered { ok: true }, undefined otherwise (counted). */
async function call(token: string, kind: Kind, name: string, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const t0 = performance.now();
  let text: string;
  let status: number;
  try {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    status = res.status;
    text = await res.text();
  } catch (error) {
    countError(`${name}: ${(error as Error).name}`);
    return undefined;
  }
  samples.push({ kind, ms: performance.now() - t0 });
  if (status !== 200) return void countError(`${name}: HTTP ${status}`);
  const envelope = (JSON.parse(text) as { result?: { structuredContent?: { ok: boolean; data?: Record<string, unknown>; error?: { code: string } } } }).result?.structuredContent;
  if (!envelope) return void countError(`${name}: no envelope`);
  if (envelope.ok) return envelope.data ?? {};
  if (envelope.error?.code === 'rate_limited') refusals++;
  else countError(`${name}: ${envelope.error?.code}`);
  return undefined;
}

interface Agent { token: string; websiteId: string; sectionId: string; ownerId: string }

/** Slot `i` of a connection's cycle of nine: four reads, three edits, and a plan flow that takes slots 6 and 7. */
async function step(agent: Agent, i: number): Promise<void> {
  const { token, websiteId, sectionId } = agent;
  switch (i % 9) {
    case 0: await call(token, 'read', 'list_sites', {}); return;
    case 1: case 4: await call(token, 'read', 'get_site_overview', { websiteId }); return;
    case 3: await call(token, 'read', 'list_pages', { websiteId }); return;
    case 2: case 5: case 8: await call(token, 'edit', 'update_section_text', { websiteId, sectionId, field: 'heading', text: `Heading ${i}` }); return;
    case 6: {
      const card = await call(token, 'plan', 'prepare_publish', { websiteId });
      if (!card) return;
      await fx.decide(String(card.planId), agent.ownerId, 'approve');
      await call(token, 'plan', 'confirm_pending_action', { planId: card.planId });
    }
  }
}

/** Calls on the schedule (one every intervalMs, a late call goes at once) until the deadline. */
async function drive(agent: Agent, offsetMs: number, deadline: number): Promise<void> {
  const start = performance.now() + offsetMs;
  for (let i = 0; ; i++) {
    const due = start + i * intervalMs;
    if (due >= deadline) return;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // A plan flow is two calls: it takes two slots of the schedule.
    await step(agent, i);
    if (i % 9 === 6) i++;
  }
}

try {
  const agents: Agent[] = [];
  for (let w = 0; w < workspaceCount; w++) {
    const inThis = Math.min(perWorkspaceConnections, connectionCount - agents.length);
    const sites = Array.from({ length: inThis }, (_, s) => ({ key: `site${s}`, members: { owner: 'owner' as const }, published: true }));
    const world = await fx.world({ users: [{ key: 'owner' }], sites });
    const ownerId = world.users.owner!.userId;
    for (let s = 0; s < inThis; s++) {
      const site = world.sites[`site${s}`]!;
      const { token } = await fx.connection({ userId: ownerId, websiteId: site.websiteId, scopes: ['site:read', 'content:write', 'publish'] });
      const sectionId = Object.values(site.pages.home?.sections ?? Object.values(site.pages)[0]!.sections)[0]!;
      agents.push({ token, websiteId: site.websiteId, sectionId, ownerId });
    }
  }
  console.log(`load: ${agents.length} connections in ${workspaceCount} workspaces, each at ${perConnection.limit} calls/${perConnection.windowSeconds} s (${perWorkspace.limit}/${perWorkspace.windowSeconds} s per workspace), ${durationS} s, 4 reads, 3 edits and a plan flow (2 calls) in every 9 calls, node ${process.version}`);
  const rss = [rssMb(server.pid!)];
  const sampler = setInterval(() => rss.push(rssMb(server.pid!)), 1000);
  const t0 = performance.now();
  const deadline = t0 + durationS * 1000;
  await Promise.all(agents.map((agent, n) => drive(agent, (n * intervalMs) / agents.length, deadline)));
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  rss.push(rssMb(server.pid!));

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
  };
  const line = (label: string, xs: number[]) => `${label.padEnd(6)} ${String(xs.length).padStart(6)} calls  p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms  p99 ${pct(xs, 99).toFixed(1).padStart(6)} ms`;
  const all = samples.map((s) => s.ms);
  console.log(`${samples.length} calls in ${elapsed.toFixed(1)} s (${(samples.length / elapsed).toFixed(1)}/s; at the limits: ${((connectionCount * perConnection.limit) / perConnection.windowSeconds).toFixed(1)}/s)`);
  console.log(`  ${line('all', all)}`);
  for (const kind of ['read', 'edit', 'plan'] as const) console.log(`  ${line(kind, samples.filter((s) => s.kind === kind).map((s) => s.ms))}`);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`rate-limit refusals (intended at the limit): ${refusals}`);
  console.log(`errors: ${errorCount} (goal: 0)${errorCount ? ` — ${[...errors].map(([what, n]) => `${what} × ${n}`).join(', ')}` : ''} ${errorCount === 0 ? 'met' : 'NOT met'}`);
  const [first, last] = [rss[0]!, rss[rss.length - 1]!];
  console.log(`server RSS: ${first.toFixed(0)} MB at the start, peak ${Math.max(...rss).toFixed(0)} MB, ${last.toFixed(0)} MB at the end (growth ${(last - first).toFixed(0)} MB)`);
  if (errorCount > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
