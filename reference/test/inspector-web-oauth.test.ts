// OAuth 2.1 as the MCP Inspector's web UI completes it (an off-the-shelf client with nothing but the
// URL). The Inspector (@modelcontextprotocol/inspector, the devDependency, `mcp-inspector --web`) runs as its own
// process group on loopback in a temporary home; Debian's Chromium drives its page like a person: add a server
// (Streamable HTTP, the /api/mcp URL only), connect, get sent to the reference's sign-in and consent pages, approve,
// come back to the Inspector, list the tools and call list_sites and update_section_text from its Tools tab. The
// Inspector does discovery, dynamic registration, PKCE and the code exchange in its own backend (its /api/fetch
// proxy), so this is a browser-based client whose redirect URI is its page's origin plus /oauth/callback. Then the
// reference restarts on the same data directory and port: the Inspector keeps its tokens (in the temporary home's
// secrets file) and reconnects without a new consent, and once its access token is refused it spends the refresh
// token from before the restart (with the provider's state in memory only, it is sent to sign in again instead).
// Screenshots of each step land in reports/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, REPORTS } from './chromium.js';
import { startServer, type RunningServer } from '../app.js';
import { testMode } from '../testing/index.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { loadTools } from '../../spec/index.js';
import { FIXTURES_SECRET } from './harness.js';

const launcher = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url));
/** Generous for a loaded 2-core machine; every wait below is bounded by one of these. */
const STEP = 45_000;
const SERVER_ID = 'site-mcp';

let home: string;
let dataDir: string;
let server: RunningServer;
let port = 0;
let world: WorldWithPasswords;
let browser: Browser;
let page: Page;
let inspector: { child: ChildProcess; url: string; output: string[] } | undefined;
/** Every URL the Inspector's page loaded on the reference (sign-in, consent): what the restart must not repeat. */
const referenceNavigations: string[] = [];

const start = async () => {
  server = await startServer({ host: '127.0.0.1', port, dataDir, allowedHosts: [] }, testMode(FIXTURES_SECRET));
  port = Number(new URL(server.url).port);
};

/** A loopback port free right now: the Inspector's web port must be fixed (it refuses CLIENT_PORT=0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * Starts `mcp-inspector --web` in its own process group (so stopping it stops whatever it spawned), bound to
 * 127.0.0.1, with its own API token, no browser opening, the MCP Apps sandbox and app origin on OS-assigned ports,
 * and secrets in a file under the temporary home. Resolves with the page's URL once the banner is printed.
 */
async function startInspector(): Promise<{ child: ChildProcess; url: string; output: string[] }> {
  const token = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  for (let attempt = 1; ; attempt++) {
    const clientPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      HOST: '127.0.0.1',
      CLIENT_PORT: String(clientPort),
      MCP_SANDBOX_PORT: '0',
      MCP_APP_ORIGIN_PORT: '0',
      MCP_AUTO_OPEN_ENABLED: 'false',
      MCP_INSPECTOR_API_TOKEN: token,
      MCP_INSPECTOR_SECRET_STORE: 'file',
    };
    // Not inherited from a developer's shell: these would change what the Inspector binds to or trusts.
    for (const name of ['DANGEROUSLY_OMIT_AUTH', 'DANGEROUSLY_BIND_ALL_INTERFACES', 'ALLOWED_ORIGINS', 'MCP_STORAGE_DIR', 'MCP_CATALOG_PATH', 'SERVER_PORT', 'VITEST']) delete env[name];
    const child = spawn(process.execPath, [launcher, '--web'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    const url = await new Promise<string | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Inspector printed no address within ${STEP / 1000} s: ${output.join('')}`)), STEP);
      const seen = (chunk: Buffer) => {
        output.push(chunk.toString());
        const text = output.join('');
        const up = text.match(/up and running at:\s+(http:\/\/127\.0\.0\.1:\d+\S*)/);
        if (up) {
          clearTimeout(timer);
          resolve(up[1]!);
        } else if (text.includes('PORT IS IN USE')) {
          clearTimeout(timer);
          resolve(null);
        }
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (output.join('').includes('PORT IS IN USE')) resolve(null);
        else reject(new Error(`the Inspector exited (${code}): ${output.join('')}`));
      });
    });
    if (url) return { child, url, output };
    await stopInspector({ child });
    // The probed port was taken between probe and bind; bounded retries with a new one.
    if (attempt >= 3) throw new Error(`no free port for the Inspector after 3 attempts: ${output.join('')}`);
  }
}

/** Stops the Inspector's whole process group: SIGTERM, then SIGKILL if it is still there after 10 s. */
async function stopInspector({ child }: { child: ChildProcess }): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!stopped) {
    signal('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
  // Anything the launcher spawned and left in the group goes too.
  signal('SIGKILL');
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `${REPORTS}inspector-web-${name}.png`, fullPage: true });
}

/** The text of the Inspector's read-only JSON editor (Ace) under `label`, as the page holds it. */
async function editorText(label: string): Promise<string> {
  const editor = page.locator('.ace_editor').filter({ has: page.locator(`textarea[aria-label^="${label}"]`) }).first();
  await editor.waitFor({ timeout: STEP });
  return editor.evaluate((el) => (el as unknown as { env: { editor: { getValue(): string } } }).env.editor.getValue());
}

/** Opens the Tools tab, picks `tool`, fills `fields` (the Inspector's form from its input schema) and runs it. */
async function runTool(tool: string, fields: Record<string, string> = {}): Promise<{ ok: boolean; data?: Record<string, unknown>; error?: unknown }> {
  await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Tools$/ }).click({ timeout: STEP });
  await page.getByPlaceholder('Search tools...').fill(tool, { timeout: STEP });
  await page.getByText(tool, { exact: true }).click({ timeout: STEP });
  // Picking a tool shows its form; the previous tool's results are gone until this one answers.
  const results = page.getByRole('heading', { name: 'Results', exact: true });
  await results.waitFor({ state: 'hidden', timeout: STEP });
  for (const [name, value] of Object.entries(fields)) await page.getByLabel(new RegExp(`^${name}( \\*)?$`)).fill(value, { timeout: STEP });
  await page.getByRole('button', { name: 'Execute Tool' }).click({ timeout: STEP });
  await results.waitFor({ timeout: STEP });
  return JSON.parse(await editorText('JSON content')) as { ok: boolean; data?: Record<string, unknown> };
}

/**
 * The status (OK or ERROR) the Inspector's protocol log shows for the newest request of `method`, or null while
 * it has none: the log's entry is the nearest ancestor of the method's label that also holds a status badge.
 */
function logStatus(method: string): Promise<string | null> {
  return page.locator('body').evaluate((body, wanted) => {
    const leaves = [...body.querySelectorAll('*')].filter((e) => e.children.length === 0);
    for (const label of leaves.filter((e) => e.textContent?.trim().toLowerCase() === wanted)) {
      let entry = label.parentElement;
      for (let depth = 0; entry && depth < 6; depth++, entry = entry.parentElement) {
        const badge = [...entry.querySelectorAll('*')].find((e) => e.children.length === 0 && /^(ok|error)$/i.test(e.textContent?.trim() ?? ''));
        if (badge) return badge.textContent!.trim().toUpperCase();
      }
    }
    return null;
  }, method);
}

/** Waits until the server card reads Connected (bounded), failing with where the page is and what the card says. */
async function connected(): Promise<void> {
  // The innermost element holding both the server's switch and its URL: its card.
  const card = page.locator('div').filter({ has: page.getByRole('switch', { name: `Connect or disconnect "${SERVER_ID}"` }) }).filter({ hasText: '/api/mcp' }).last();
  const deadline = Date.now() + STEP;
  let said = '';
  while (Date.now() < deadline) {
    said = await card.innerText({ timeout: 1_000 }).catch(() => '(no card on this page)');
    if (/\bConnected\b/.test(said)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`not connected within ${STEP / 1000} s; the page is at ${page.url()}; the card says: ${said.replace(/\s+/g, ' ').slice(0, 200)}`);
}

/** Connects the server's card again from a freshly loaded Inspector page (disconnecting first if it reconnected). */
async function reconnect(): Promise<void> {
  await page.goto(inspector!.url, { timeout: STEP });
  const toggle = page.getByRole('switch', { name: `Connect or disconnect "${SERVER_ID}"` });
  await toggle.waitFor({ state: 'attached', timeout: STEP });
  if (await toggle.isChecked()) {
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked(), { timeout: STEP, interval: 250 }).toBe(false);
  }
  await toggle.click({ force: true });
  await connected();
}

const secretsFile = () => join(home, '.mcp-inspector', 'secrets.json');
type StoredTokens = { access_token: string; refresh_token?: string };

/** The OAuth tokens the Inspector keeps (MCP_INSPECTOR_SECRET_STORE=file: one JSON string per secret). */
async function storedTokens(): Promise<StoredTokens[]> {
  const { secrets } = JSON.parse(await readFile(secretsFile(), 'utf8')) as { secrets: Record<string, string> };
  return Object.entries(secrets).filter(([key]) => key.includes(':tokens:')).map(([, value]) => JSON.parse(value) as StoredTokens);
}

/** Replaces the access token of every stored token set; answers how many it replaced. */
async function replaceStoredAccessTokens(replacement: string): Promise<number> {
  const file = JSON.parse(await readFile(secretsFile(), 'utf8')) as { secrets: Record<string, string> };
  let replaced = 0;
  for (const [key, value] of Object.entries(file.secrets)) {
    if (!key.includes(':tokens:')) continue;
    file.secrets[key] = JSON.stringify({ ...(JSON.parse(value) as StoredTokens), access_token: replacement });
    replaced++;
  }
  await writeFile(secretsFile(), JSON.stringify(file, null, 2), { mode: 0o600 });
  return replaced;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'site-mcp-inspector-web-home-'));
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-inspector-web-'));
  await start();
  world = await new FixturesClient(server.url, FIXTURES_SECRET).world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  inspector = await startInspector();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(server.url)) referenceNavigations.push(frame.url());
  });
}, 3 * STEP);

afterAll(async () => {
  await browser?.close();
  if (inspector) await stopInspector(inspector);
  await server?.close();
  for (const dir of [home, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
}, 3 * STEP);

describe('OAuth 2.1 with the MCP Inspector web UI', () => {
  it('rule:oauth-dynamic-client-registration rule:oauth-token-verified-at-edge — added by its URL only, the Inspector signs in through the reference, the owner approves, its Tools tab lists and calls tools', async () => {
    await page.goto(inspector!.url, { timeout: STEP });
    await page.getByRole('button', { name: 'Add Servers' }).click({ timeout: STEP });
    await page.getByRole('menuitem', { name: '+ Add manually' }).click({ timeout: STEP });
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Server ID').fill(SERVER_ID);
    await dialog.getByLabel('Transport').click();
    await page.getByRole('option', { name: 'streamable-http' }).click({ timeout: STEP });
    await dialog.getByLabel('URL').fill(`${server.url}/api/mcp`);
    await shot('1-add-server');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: STEP });

    // Connecting without a token: the Inspector discovers, registers and sends the page to the authorization URL.
    await page.getByRole('switch', { name: `Connect or disconnect "${SERVER_ID}"` }).click({ force: true, timeout: STEP });
    await page.waitForURL((url) => url.href.startsWith(`${server.url}/app/sign-in?`), { timeout: STEP });
    await shot('2-sign-in');
    await page.fill('input[name=email]', world.users.olive!.email);
    await page.fill('input[name=password]', world.users.olive!.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=approve]', { timeout: STEP });
    const consent = (await page.textContent('body')) ?? '';
    // The client's registered name, and where approving returns to: the Inspector's own origin.
    expect(consent).toContain('MCP Inspector');
    expect(consent).toContain(new URL(inspector!.url).host);
    await shot('3-consent');
    await page.click('button[value=approve]');

    // Back at the Inspector: it takes the code at /oauth/callback, exchanges it and connects.
    await page.waitForURL((url) => url.origin === new URL(inspector!.url).origin, { timeout: STEP });
    await connected();
    // The Inspector lists resource templates on connecting, as the resources capability allows; "Method not found"
    // showed there as a failed request (fixed in reference/mcp/server.ts). No request of the connection failed.
    await expect.poll(() => logStatus('resources/templates/list'), { timeout: STEP, interval: 250 }).toBe('OK');
    expect(await page.getByText(/^error$/i).count(), 'no ERROR in the protocol log').toBe(0);
    await shot('4-connected');

    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Tools$/ }).click({ timeout: STEP });
    // Every tool of spec/tools, listed by the Inspector.
    await page.getByRole('heading', { name: `Tools (${loadTools().length})`, exact: true }).waitFor({ timeout: STEP });
    const sites = await runTool('list_sites');
    expect(sites.ok, JSON.stringify(sites)).toBe(true);
    expect((sites.data!.sites as { websiteId: string }[]).map((s) => s.websiteId)).toEqual([world.sites.main!.websiteId]);
    await shot('5-list-sites');

    const hero = world.sites.main!.pages.home!.sections.hero!;
    const edit = await runTool('update_section_text', { sectionId: hero, field: 'heading', text: 'Written from the Inspector web UI' });
    expect(edit.ok, JSON.stringify(edit)).toBe(true);
    await shot('6-update-section-text');
    // The write reached the draft, not just the answer.
    const ws = await server.parts.store.read(world.workspaceId);
    expect(JSON.stringify(ws!.sites[world.sites.main!.websiteId])).toContain('Written from the Inspector web UI');
  }, 8 * STEP);

  it('rule:oauth-state-survives-restart — after the reference restarts, the Inspector reconnects with the tokens it kept, without a new sign-in or consent', async () => {
    const before = referenceNavigations.length;
    await server.close();
    await start();
    // Its access token still verifies: the signing keys and the client's connection outlived the restart.
    await reconnect();
    await shot('7-after-restart');
    expect(referenceNavigations.slice(before), 'no sign-in or consent page after the restart').toEqual([]);
    const sites = await runTool('list_sites');
    expect(sites.ok, JSON.stringify(sites)).toBe(true);
    await shot('8-list-sites-after-restart');
  }, 6 * STEP);

  it('rule:oauth-state-survives-restart — once its access token is no longer accepted, the Inspector spends the refresh token it got before the restart, still without the owner', async () => {
    const before = referenceNavigations.length;
    // Stands in for the hour after which the access token expires (its lifetime; the server's clock is the
    // system's): the Inspector's stored access token is replaced by one the server refuses, so its next
    // connection answers 401 and the Inspector must use its refresh token. That token, the grant and the client's
    // registration are the identity provider's state from before the restart (reference/auth/oauth-adapter.ts).
    const expired = await replaceStoredAccessTokens('expired-for-the-test');
    expect(expired, 'the Inspector keeps its tokens in the secrets file of its home').toBeGreaterThan(0);
    await reconnect();
    await shot('9-after-refresh');
    expect(referenceNavigations.slice(before), 'no sign-in or consent page for a refresh').toEqual([]);
    const tokens = await storedTokens();
    expect(tokens.map((t) => t.access_token)).not.toContain('expired-for-the-test');
    const sites = await runTool('list_sites');
    expect(sites.ok, JSON.stringify(sites)).toBe(true);
  }, 6 * STEP);
});
