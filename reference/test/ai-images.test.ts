// generate_image against an injected provider, in-process: no provider call without credits or consent, and a
// failed delivery costs nothing (rules generate-image-credits-before-provider, generate-image-charged-after-delivery).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgBrandProvider, type ImageProvider } from '../infra/image-provider.js';
import { startTestServer, type TestServer } from './harness.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let test: TestServer;
let mcp: McpConnection;
let workspaceId: string;
let providerCalls = 0;
let providerDown = false;

beforeAll(async () => {
  // A fake provider in the services record (the real one runs in the generate_image scenarios of features/).
  const images: ImageProvider = {
    async render(request) {
      providerCalls++;
      if (providerDown) throw new Error('provider down');
      return svgBrandProvider.render(request);
    },
  };
  test = await startTestServer('ai', {}, { fakes: { images } });
  const world = await test.fx.world({ credits: 0, users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  workspaceId = world.workspaceId;
  const { token } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['ai:generate'] });
  mcp = new McpConnection(test.url, token);
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
});

describe('generate_image', () => {
  it('rule:generate-image-credits-before-provider — never calls the provider without credits', async () => {
    const { envelope } = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(envelope.error?.code).toBe('insufficient_credits');
    expect(providerCalls).toBe(0);
  });

  it('rule:generate-image-charged-after-delivery — a failed delivery costs nothing', async () => {
    await test.fx.settings(workspaceId, { credits: 3 });
    providerDown = true;
    const failed = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(failed.envelope.error?.code).toBe('operation_failed');
    expect(providerCalls).toBe(1);
    providerDown = false;
    const ok = await mcp.callTool('generate_image', { prompt: 'A loaf' });
    expect(ok.envelope.data.creditsRemaining).toBe(2);
    expect(providerCalls).toBe(2);
  });
});
