// generate_image against an injected provider, in-process: no provider call without credits or consent, and a
// failed delivery costs nothing (rules generate-image-credits-before-provider, generate-image-charged-after-delivery).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { testMode } from '../testing/index.js';
import { setImageProvider, imageProvider } from '../tools/ai-images.js';
import { svgBrandProvider } from '../domain/image-provider.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let server: RunningServer;
let dir: string;
let mcp: McpConnection;
let fx: FixturesClient;
let workspaceId: string;
let providerCalls = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-ai-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] }, testMode('test-secret'));
  fx = new FixturesClient(server.url, 'test-secret');
  const world = await fx.world({ credits: 0, users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  workspaceId = world.workspaceId;
  const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['ai:generate'] });
  mcp = new McpConnection(server.url, token);
});

afterAll(async () => {
  setImageProvider(svgBrandProvider);
  await mcp?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const counting = (fail: boolean) =>
  setImageProvider({
    async render(request) {
      providerCalls++;
      if (fail) throw new Error('provider down');
      return svgBrandProvider.render(request);
    },
  });

describe('generate_image', () => {
  it('rule:generate-image-credits-before-provider — never calls the provider without credits', async () => {
    counting(false);
    const { envelope } = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(envelope.error?.code).toBe('insufficient_credits');
    expect(providerCalls).toBe(0);
  });

  it('rule:generate-image-charged-after-delivery — a failed delivery costs nothing', async () => {
    await fx.settings(workspaceId, { credits: 3 });
    counting(true);
    const failed = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(failed.envelope.error?.code).toBe('operation_failed');
    expect(providerCalls).toBe(1);
    counting(false);
    const ok = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(ok.envelope.data.creditsRemaining).toBe(2);
    expect(imageProvider).toBeDefined();
  });
});
