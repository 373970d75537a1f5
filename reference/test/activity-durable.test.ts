// An answered call's activity entry is on disk before the answer leaves (rules activity-entry-every-call,
// store-durable-commit): a crash right after an answer can no longer lose its entry. The append is slowed here
// so that an answer sent before it finished would show.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpConnection } from '../../conformance/lib/mcp-client.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let mcp: McpConnection;
let workspaceId: string;

beforeAll(async () => {
  test = await startTestServer('activity');
  ({ mcp, workspaceId } = await ownerWithConnection(test, ['site:read']));
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
});

describe('activity before the answer', () => {
  it('rule:activity-entry-every-call — the answer of a call leaves only after its entry is written to disk', async () => {
    await mcp.callTool('list_sites'); // connect first, so only the measured call is in flight
    const activity = test.server.parts.activity;
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
      const files = await readdir(join(test.dir, 'activity', workspaceId));
      const lines = (await Promise.all(files.map((f) => readFile(join(test.dir, 'activity', workspaceId, f), 'utf8')))).join('');
      expect(lines).toContain('"name":"get_site_overview"');
    } finally {
      activity.append = append;
    }
  });
});
