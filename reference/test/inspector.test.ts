// The MCP Inspector's CLI, as an agent developer would use it, against a freshly started reference server:
// tools/list passes the Inspector's strict portability check with no finding at all (rule
// tools-list-single-type-schemas: it warned of crm_update's type: ["string", "null"]), resources/templates/list
// answers (the Inspector asks for it on every connect), and a tool call answers the envelope. Each in both protocol
// eras (rule mcp-eras-both): the Inspector's legacy mode (initialize, 2025-11-25) and its modern one
// (server/discover and per-request _meta, 2026-07-28).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../conformance/lib/target.js';
import { referenceServer } from '../../conformance/properties/shared-reference.js';
import { FixturesClient } from '../../conformance/lib/fixtures-client.js';
import { loadTools } from '../../spec/index.js';

const run = promisify(execFile);
const inspector = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));
let target: Target;
let token: string;

beforeAll(async () => {
  target = await referenceServer();
  const fx = new FixturesClient(target.url, target.fixturesSecret);
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  token = (await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, preset: 'full' })).token;
});

afterAll(async () => {
  await target?.stop();
});

for (const era of ['legacy', 'modern'] as const) {
  const cli = (...args: string[]) =>
    run(process.execPath, [inspector, '--cli', `${target.url}/api/mcp`, '--transport', 'http', '--protocol-era', era, '--header', `Authorization: Bearer ${token}`, ...args], { timeout: 60_000 });

  describe(`MCP Inspector CLI, ${era} protocol era`, () => {
    it('rule:tools-list-single-type-schemas — lists every tool of spec/tools with no strict-mode portability error or warning', async () => {
      const { stdout, stderr } = await cli('--method', 'tools/list', '--strict');
      expect(JSON.parse(stdout).tools).toHaveLength(loadTools().length);
      // The Inspector prints its findings (Error:/Warning: lines and a count) only when there are any.
      expect(stderr).not.toMatch(/Warning:|Error:|\d+ warnings?|\d+ errors?/);
    });

    it('lists resource templates: none, as the four resources of §4.4 have fixed addresses', async () => {
      const { stdout } = await cli('--method', 'resources/templates/list');
      expect(JSON.parse(stdout)).toEqual({ resourceTemplates: [] });
    });

    it('rule:tool-result-envelope — calls a tool and gets the envelope back', async () => {
      const { stdout } = await cli('--method', 'tools/call', '--tool-name', 'list_sites');
      const result = JSON.parse(stdout);
      expect(result.structuredContent.ok).toBe(true);
      expect(result.structuredContent.data.sites).toHaveLength(1);
      // Only a 2026-07-28 answer names the server in its _meta (rule mcp-2026-server-info): the era was the one asked for.
      expect(result._meta?.['io.modelcontextprotocol/serverInfo']?.name).toBe(era === 'modern' ? 'site-mcp-reference' : undefined);
    });
  });
}
