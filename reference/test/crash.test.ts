// Crash safety of the reference server (rules store-durable-commit, store-lookups-with-document,
// create-company-once, activity-entry-every-call): the real server runs as a child process, takes mixed writes
// (new sites, section edits, company confirmations) from several clients at once and is killed with SIGKILL at
// a random moment, several times over one data directory. After each restart every invariant is checked:
// every file parses, every acknowledged write is there, every site that exists can be reached by its id, a
// retried company confirmation never creates a second company, and every answered call left its activity entry.
// Bounded: SITE_MCP_CRASH_ROUNDS rounds (default 4), each a few hundred milliseconds of load; seeded by
// SITE_MCP_SEED (printed on failure).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import type { WorkspaceDoc } from '../domain/model.js';
import { storedWorkspaces } from './stored-layout.js';

const SECRET = 'crash-test-secret';
const ROUNDS = Number(process.env.SITE_MCP_CRASH_ROUNDS ?? 4);
const seed = Number(process.env.SITE_MCP_SEED ?? Math.floor(Math.random() * 2 ** 31));
let state = seed;
/** A small seeded generator (mulberry32), so a failing run can be replayed. */
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let dataDir: string;
let child: ChildProcess | undefined;

async function startServer(): Promise<string> {
  child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', 'reference/main.ts', '--port', '0', '--data-dir', dataDir, '--fixtures-secret', SECRET, '--no-seed', '--rate-limits', '100000,100000'],
    { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${out}`)), 30_000);
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child!.stderr!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    child!.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
}

function kill(): Promise<void> {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.once('exit', () => resolve());
    running.kill('SIGKILL');
  });
}

afterAll(async () => {
  await kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function workspaceDocs(): Promise<WorkspaceDoc[]> {
  // No temporary file or unreplayed commit survives a restart, and every document parses (storedWorkspaces throws on a torn one).
  for (const sub of ['workspaces', 'journal', 'tmp']) {
    for (const name of await readdir(join(dataDir, sub), { recursive: true })) expect(name, 'a temporary file survived a restart').not.toMatch(/\.tmp$/);
  }
  expect(await readdir(join(dataDir, 'journal')), 'a commit was left unreplayed').toEqual([]);
  return storedWorkspaces(dataDir);
}

interface Tenant {
  workspaceId: string;
  ownerId: string;
  websiteId: string;
  sectionId: string;
  connectionId: string;
  token: string;
}

interface Acknowledged {
  sites: string[];
  heading: number;
  companies: { planId: string; name: string }[];
  calls: number;
}

describe('crash safety', () => {
  it(`rule:store-durable-commit rule:store-lookups-with-document rule:create-company-once — ${ROUNDS} kills during mixed writes leave no corrupt file, no lost acknowledged write, no orphan, no duplicate company (seed ${seed})`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-crash-'));
    let url = await startServer();
    const tenants: Tenant[] = [];
    const acked = new Map<string, Acknowledged>();

    for (let round = 0; round < ROUNDS; round++) {
      const fx = new FixturesClient(url, SECRET);
      // A fresh tenant each round (create_site has a per-workspace throttle), while earlier ones are re-checked.
      const world = await fx.world({ plan: 'agency', advancedEditorGrant: true, users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
      const site = world.sites.main!;
      const created = await fx.connection({ userId: world.users.owner!.userId, websiteId: site.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write', 'workspace:write'] });
      const tenant: Tenant = { workspaceId: world.workspaceId, ownerId: world.users.owner!.userId, websiteId: site.websiteId, sectionId: site.pages.home!.sections.hero!, connectionId: created.connectionId, token: created.token };
      tenants.push(tenant);
      const ack: Acknowledged = { sites: [], heading: -1, companies: [], calls: 0 };
      acked.set(tenant.workspaceId, ack);
      const mcp = new McpConnection(url, tenant.token);
      // Two company plans, approved before the load, confirmed during it.
      for (let i = 0; i < 2; i++) {
        const name = `Crash Co ${round}-${i}`;
        const prepared = await mcp.callTool('prepare_create_company', { websiteId: tenant.websiteId, companyName: name });
        expect(prepared.envelope?.ok, JSON.stringify(prepared.envelope)).toBe(true);
        ack.calls++;
        const planId = String(prepared.envelope!.data.planId);
        await fx.decide(planId, tenant.ownerId, 'approve');
        ack.companies.push({ planId, name });
      }

      // The load: each client loops until the server dies under it.
      const call = async (tool: string, args: Record<string, unknown>) => {
        const outcome = await mcp.callTool(tool, args);
        if (outcome.envelope) ack.calls++;
        return outcome.envelope;
      };
      const killAfterMs = 30 + Math.floor(random() * 300);
      // Confirmations start at a random moment before the kill, so the kill can fall inside one.
      const confirmAfterMs = Math.floor(random() * killAfterMs);
      const clients = [
        (async () => {
          for (let i = 0; i < 5; i++) {
            // Spread over the window before the kill, so the kill can fall inside a creation.
            await new Promise((r) => setTimeout(r, random() * (killAfterMs / 4)));
            const answer = await call('create_site', { businessName: `Site ${round}-${i}` });
            if (answer?.ok) ack.sites.push(String(answer.data.websiteId));
          }
        })(),
        (async () => {
          // import_site has no throttle: new sites keep being created until the kill.
          for (let i = 0; i < 60; i++) {
            const snapshot = { format: 'PortableSiteV1', site: { name: `Import ${round}-${i}` }, pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content: { heading: 'Imported' } }] }] };
            const answer = await call('import_site', { snapshot });
            if (answer?.ok) ack.sites.push(String(answer.data.websiteId));
          }
        })(),
        (async () => {
          for (let n = 0; n < 200; n++) {
            const answer = await call('update_section_text', { websiteId: tenant.websiteId, sectionId: tenant.sectionId, field: 'heading', text: `Heading ${n}` });
            if (answer?.ok) ack.heading = n;
          }
        })(),
        (async () => {
          await new Promise((r) => setTimeout(r, confirmAfterMs));
          for (const company of ack.companies) {
            await call('confirm_pending_action', { websiteId: tenant.websiteId, planId: company.planId });
          }
        })(),
      ].map((p) => p.catch(() => undefined)); // a client whose server was killed stops
      await new Promise((r) => setTimeout(r, killAfterMs));
      await kill();
      await Promise.all(clients);
      await mcp.close().catch(() => undefined);

      url = await startServer();
      const docs = await workspaceDocs();
      for (const t of tenants) {
        const a = acked.get(t.workspaceId)!;
        const conn = new McpConnection(url, t.token);
        // Every site that exists in the document is reachable by its id (no orphan), acknowledged ones included.
        const doc = docs.find((d) => d.id === t.workspaceId)!;
        for (const websiteId of a.sites) expect(Object.keys(doc.sites), `acknowledged site ${websiteId} lost`).toContain(websiteId);
        for (const websiteId of Object.keys(doc.sites)) {
          const overview = await conn.callTool('get_site_overview', { websiteId });
          expect(overview.envelope?.ok, `site ${websiteId} exists but cannot be reached: ${JSON.stringify(overview.envelope)}`).toBe(true);
          // By its id alone too (the public site, the fixtures): the id → workspace lookup entry exists.
          await expect(new FixturesClient(url, SECRET).siteState(websiteId), `site ${websiteId} has no lookup entry`).resolves.toMatchObject({});
        }
        // The last acknowledged edit (or a later one) is there.
        const section = JSON.stringify(doc.sites[t.websiteId]!.draft);
        const kept = Math.max(-1, ...[...section.matchAll(/Heading (\d+)/g)].map((m) => Number(m[1])));
        expect(kept, 'an acknowledged section edit was lost').toBeGreaterThanOrEqual(a.heading);
        // Confirm every plan again, as a client whose answer the crash cut off would: the plan ends redeemed
        // (a retry of a redeemed one is refused) and each plan yields exactly one company.
        for (const company of a.companies) {
          await conn.callTool('confirm_pending_action', { websiteId: t.websiteId, planId: company.planId });
          expect((await new FixturesClient(url, SECRET).plan(company.planId, t.workspaceId)).status).toBe('redeemed');
        }
        await conn.close();
        const after = await workspaceDocs();
        for (const company of a.companies) {
          const made = after.filter((d) => d.companyName === company.name);
          expect(made.length, `${company.name}: ${made.length} companies`).toBe(1);
        }
        // Every answered call left its activity entry (a few more may exist: calls whose answer the kill cut off).
        const activity = await new FixturesClient(url, SECRET).activity(t.connectionId);
        expect(activity.entries.length, 'an answered call lost its activity entry').toBeGreaterThanOrEqual(a.calls);
      }
    }
  }, 240_000);
});
