// prompts/get is a call like any other (rule rate-limit-per-connection, §8): it counts against the connection's
// limit, and once refused it writes no activity (it used to be unlimited while writing an entry per call).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '../app.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

const LIMIT = 3;
let server: RunningServer;
let dir: string;
let mcp: McpConnection;
let fx: FixturesClient;
let connectionId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-prompts-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    fixturesSecret: 'test-secret',
    allowedHosts: [],
    rateLimitsOverride: { perConnection: { limit: LIMIT, windowSeconds: 60 }, perWorkspace: { limit: 100, windowSeconds: 60 } },
  });
  fx = new FixturesClient(server.url, 'test-secret');
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  const created = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read'] });
  connectionId = created.connectionId;
  mcp = new McpConnection(server.url, created.token);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('prompts/get', () => {
  it('rule:rate-limit-per-connection — prompts count against the per-connection limit', async () => {
    for (let i = 0; i < LIMIT; i++) await mcp.getPrompt('prep_for_launch');
    const refused = await mcp.getPrompt('prep_for_launch').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toMatch(/too many calls/i);
    const { entries } = await fx.activity(connectionId);
    expect(entries.filter((e) => e.kind === 'prompt')).toHaveLength(LIMIT);
  });
});
