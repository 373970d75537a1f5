// prompts/get is a call like any other (rule rate-limit-per-connection, §8): it counts against the connection's
// limit, and once refused it writes no activity (it used to be unlimited while writing an entry per call).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from '../../conformance/lib/mcp-client.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

const LIMIT = 3;
let test: TestServer;
let mcp: McpConnection;
let connectionId: string;

beforeAll(async () => {
  test = await startTestServer('prompts', {
    rateLimitsOverride: { perConnection: { limit: LIMIT, windowSeconds: 60 }, perWorkspace: { limit: 100, windowSeconds: 60 } },
  });
  ({ mcp, connectionId } = await ownerWithConnection(test, ['site:read']));
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
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
    const { entries } = await test.fx.activity(connectionId);
    expect(entries.filter((e) => e.kind === 'prompt')).toHaveLength(LIMIT);
  });
});
