// An answered call's activity entry is on disk before the answer leaves (rules activity-entry-every-call,
// store-durable-commit): a crash right after an answer can no longer lose its entry. The append is slowed here
// so that an answer sent before it finished would show.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let server: RunningServer;
let dir: string;
let mcp: McpConnection;
let workspaceId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-activity-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, fixturesSecret: 'test-secret', allowedHosts: [] });
  const fx = new FixturesClient(server.url, 'test-secret');
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  workspaceId = world.workspaceId;
  const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read'] });
  mcp = new McpConnection(server.url, token);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('activity before the answer', () => {
  it('rule:activity-entry-every-call — the answer of a call leaves only after its entry is written to disk', async () => {
    await mcp.callTool('list_sites'); // connect first, so only the measured call is in flight
    const activity = server.rt.activity;
    const append = activity.append.bind(activity);
    let appended: number | undefined;
    activity.append = async (entry) => {
      await new Promise((r) => setTimeout(r, 300));
      await append(entry);
      appended = performance.now();
    };
    try {
      const { envelope } = await mcp.callTool('get_site_overview');
      const answered = performance.now();
      expect(envelope.ok).toBe(true);
      expect(appended, 'the answer arrived before the activity entry was written').toBeDefined();
      expect(appended!).toBeLessThanOrEqual(answered);
      const files = await readdir(join(dir, 'activity', workspaceId));
      const lines = (await Promise.all(files.map((f) => readFile(join(dir, 'activity', workspaceId, f), 'utf8')))).join('');
      expect(lines).toContain('"name":"get_site_overview"');
    } finally {
      activity.append = append;
    }
  });
});
