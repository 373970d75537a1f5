// OAuth 2.1 as an off-the-shelf MCP client completes it (§5, first row: browser and desktop chat clients connect
// through OAuth 2.1): the MCP SDK's own client-side flow, unchanged — the 401's resource_metadata, RFC 9728
// metadata, authorization-server metadata, dynamic registration with the scopes such clients send, PKCE — with
// the owner's sign-in and consent clicked in Debian's Chromium (playwright-core), then the code exchange, MCP calls
// (a read and a write), a refresh-token exchange, and a restart of the server that keeps the client connected
// (the identity provider's clients, grants and keys persist in the data directory).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { callbackServer, consentInBrowser, type CallbackServer } from './oauth-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startServer, type RunningServer } from '../app.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { InMemoryOAuthClient } from '../../conformance/lib/oauth-client.js';
import { testMode } from '../testing/index.js';
import { FIXTURES_SECRET } from './harness.js';


let dataDir: string;
let server: RunningServer;
let port: number;
let browser: Browser;
let world: WorldWithPasswords;
let callback: CallbackServer;

const start = async () => {
  server = await startServer({ host: '127.0.0.1', port, dataDir, allowedHosts: [] }, testMode(FIXTURES_SECRET));
  port = Number(new URL(server.url).port);
};

async function connect(provider: InMemoryOAuthClient): Promise<Client> {
  const client = new Client({ name: 'sourdough-chat', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { authProvider: provider }));
  return client;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-oauth-sdk-'));
  port = 0;
  await start();
  world = await new FixturesClient(server.url, FIXTURES_SECRET).world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  callback = await callbackServer();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('OAuth 2.1 with the MCP SDK client', () => {
  const provider = () => new InMemoryOAuthClient('Sourdough Chat', callback.url);
  let chat: InMemoryOAuthClient;

  it('rule:oauth-dynamic-client-registration rule:oauth-token-verified-at-edge rule:protected-resource-metadata — the SDK client registers, the owner consents in Chromium, the client reads and writes', async () => {
    chat = provider();
    // First contact: no token, so the SDK discovers, registers and asks the user to open the authorization URL.
    await expect(connect(chat)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(chat.info?.client_id).toBeTruthy();
    expect(chat.opened).toHaveLength(1);
    const page = await browser.newPage();
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    page.on('request', (r) => consoleLines.push(`${r.method()} ${r.url()}`));
    page.on('response', (r) => consoleLines.push(`${r.status()} ${r.url()} ${r.headers()['content-security-policy'] ?? ''} ${r.headers()['location'] ?? ''}`));
    page.on('requestfailed', (r) => consoleLines.push(`FAILED ${r.url()} ${r.failure()?.errorText}`));
    const consent = await consentInBrowser(page, chat.opened[0]!, world.users.olive!, ['publish']);
    // The consent page names the client by the name it registered, never only by a random id.
    expect(consent).toContain('Sourdough Chat');
    const redirected = await callback.next().catch(async (error: Error) => {
      // Say where the browser stopped (a blocked redirect leaves it on the consent page or an error page).
      throw new Error(`${error.message}; the browser is at ${page.url()}: ${(await page.textContent('body'))?.slice(0, 300)}; console: ${consoleLines.join(' | ')}`);
    });
    expect(redirected.searchParams.get('error'), redirected.href).toBeNull();
    const code = redirected.searchParams.get('code');
    expect(code).toBeTruthy();
    await page.close();

    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { authProvider: chat });
    await transport.finishAuth(code!);
    expect(chat.saved?.access_token).toBeTruthy();
    expect(chat.saved?.refresh_token, 'a refresh token is issued to a client registered for it').toBeTruthy();
    const client = new Client({ name: 'sourdough-chat', version: '1.0.0' });
    await client.connect(transport);
    const sites = (await client.callTool({ name: 'list_sites', arguments: {} })).structuredContent as { ok: boolean; data: { sites: unknown[] } };
    expect(sites.ok).toBe(true);
    expect(sites.data.sites).toHaveLength(1);
    const hero = world.sites.main!.pages.home!.sections.hero!;
    const write = (await client.callTool({ name: 'update_section_text', arguments: { sectionId: hero, field: 'heading', text: 'Written through OAuth' } })).structuredContent as { ok: boolean };
    expect(write.ok, JSON.stringify(write)).toBe(true);
    // The unticked scope is not granted: the owner's choice at consent is the ceiling.
    const publish = (await client.callTool({ name: 'prepare_publish', arguments: {} })).structuredContent as { ok: boolean };
    expect(publish.ok).toBe(false);
    await client.close();
  }, 90_000);

  /** The client connects with what it holds and list_sites answers ok. */
  async function listSitesWorks(): Promise<void> {
    const client = await connect(chat);
    expect(((await client.callTool({ name: 'list_sites', arguments: {} })).structuredContent as { ok: boolean }).ok).toBe(true);
    await client.close();
  }

  /** The SDK's auth() spends the refresh token: a new access token, without the owner. */
  async function refreshes(): Promise<void> {
    const before = chat.saved!.access_token;
    expect(await auth(chat, { serverUrl: `${server.url}/api/mcp` })).toBe('AUTHORIZED');
    expect(chat.saved!.access_token).not.toBe(before);
  }

  it('rule:oauth-token-verified-at-edge — the refresh token gives a new access token that works', async () => {
    await refreshes();
    await listSitesWorks();
  }, 60_000);

  it('rule:oauth-state-survives-restart — a restart keeps the authorized client connected: its access token, refresh token and registration survive', async () => {
    await server.close();
    await start();
    await listSitesWorks();
    await refreshes();
    await listSitesWorks();
  }, 60_000);

  it('an unknown interaction link answers 404, not a server error', async () => {
    const res = await fetch(`${server.url}/oidc-interaction/no-such-interaction`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/expired|not found|start again/i);
  });
});
