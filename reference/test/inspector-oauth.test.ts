// OAuth 2.1 as the MCP Inspector completes it (an off-the-shelf client with nothing but the base URL):
// the Inspector's connection CLI (`mcpdo`, shipped in @modelcontextprotocol/inspector) connects to /api/mcp,
// discovers, registers and answers `pendingAuth` with an authorization URL; the owner signs in and approves in
// Debian's Chromium; the Inspector's own loopback callback takes the code, and its tool calls then work — also
// after the server restarts. The Inspector runs as a private daemon in a temporary home, so nothing of the
// machine's own Inspector state is read or written.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser } from 'playwright-core';
import { launchChromium, REPORTS } from './chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { testMode } from '../testing/index.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { FIXTURES_SECRET } from './harness.js';

const run = promisify(execFile);
const mcpdo = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/clients/mcpdo/build/mcp-bin.js', import.meta.url));

let home: string;
let dataDir: string;
let server: RunningServer;
let port = 0;
let world: WorldWithPasswords;
let browser: Browser;
let env: NodeJS.ProcessEnv;

const start = async () => {
  server = await startServer({ host: '127.0.0.1', port, dataDir, allowedHosts: [] }, testMode(FIXTURES_SECRET));
  port = Number(new URL(server.url).port);
};

/** Runs an Inspector command with JSON output against the one connection of this test; stdin is not a TTY. */
async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [mcpdo, '--format', 'json', '--connection', `${server.url}/api/mcp`, ...args], { env, timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'site-mcp-inspector-home-'));
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-inspector-oauth-'));
  await start();
  world = await new FixturesClient(server.url, FIXTURES_SECRET).world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  // A private, token-gated daemon under the temporary home; secrets in a file there (no keychain on CI).
  env = { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'file' };
  const { stdout } = await run(process.execPath, [mcpdo, 'private'], { env, timeout: 30_000 });
  for (const [, key, value] of stdout.matchAll(/export (\w+)='([^']*)'/g)) env[key!] = value!;
  expect(env.MCP_INSPECTOR_DAEMON_DIR).toBeTruthy();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (env) await run(process.execPath, [mcpdo, 'daemon', 'stop'], { env, timeout: 30_000 }).catch(() => undefined);
  await server?.close();
  for (const dir of [home, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('OAuth 2.1 with the MCP Inspector', () => {
  it('rule:oauth-dynamic-client-registration rule:oauth-token-verified-at-edge — the Inspector connects with only the URL, the owner approves in Chromium, its calls work', async () => {
    const connecting = await inspector('connect', `${server.url}/api/mcp`);
    expect(connecting.pendingAuth, JSON.stringify(connecting)).toBe(true);
    const authUrl = String(connecting.authUrl);
    expect(authUrl.startsWith(`${server.url}/oidc/auth?`)).toBe(true);

    const page = await browser.newPage();
    await page.goto(authUrl);
    await page.fill('input[name=email]', world.users.olive!.email);
    await page.fill('input[name=password]', world.users.olive!.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=approve]');
    await page.screenshot({ path: `${REPORTS}inspector-oauth-consent.png`, fullPage: true });
    await page.click('button[value=approve]');
    // The Inspector's loopback callback answers the browser once it has the code.
    await page.waitForURL(/\/oauth\/callback\?/, { timeout: 30_000 });
    expect(await page.textContent('body')).toMatch(/OAuth complete/i);
    await page.close();

    const shown = await inspector('connections/show');
    expect((shown.auth as { authorized?: boolean }).authorized, JSON.stringify(shown.auth)).toBe(true);
    const sites = (await inspector('tools/call', 'list_sites')).structuredContent as { ok: boolean; data: { sites: { websiteId: string }[] } };
    expect(sites.ok).toBe(true);
    expect(sites.data.sites.map((s) => s.websiteId)).toEqual([world.sites.main!.websiteId]);
    const hero = world.sites.main!.pages.home!.sections.hero!;
    const edit = (await inspector('tools/call', '--tool-args-json', JSON.stringify({ sectionId: hero, field: 'heading', text: 'Written from the Inspector' }), 'update_section_text')).structuredContent as { ok: boolean };
    expect(edit.ok, JSON.stringify(edit)).toBe(true);
  }, 120_000);

  it('rule:oauth-state-survives-restart — after a server restart the Inspector is still connected', async () => {
    await server.close();
    await start();
    const sites = (await inspector('tools/call', 'list_sites')).structuredContent as { ok: boolean };
    expect(sites.ok).toBe(true);
  }, 60_000);
});
