// An off-the-shelf MCP client completes OAuth 2.1 against `npm start` itself — the command
// a newcomer runs, its own seeded demo workspace, no test mode and no fixtures — with nothing but the base URL the
// server prints, and a restart of that process keeps the client connected. The other OAuth tests compose the
// server in-process with test mode (to build worlds); this one proves the shipped entry point needs none of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { InMemoryOAuthClient } from '../../conformance/lib/oauth-client.js';
import { launchChromium } from './chromium.js';
import { callbackServer, consentInBrowser, type CallbackServer } from './oauth-browser.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Started {
  child: ChildProcess;
  output: string;
  baseUrl: string;
}

/** `npm start -- --port P --data-dir D` in its own process group; resolves once it prints where it listens. */
function npmStart(port: number, dataDir: string, firstRun: boolean): Promise<Started> {
  const child = spawn('npm', ['start', '--silent', '--', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SITE_MCP_FIXTURES_SECRET: '', SITE_MCP_CAPTURE: 'off' },
  });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start printed no address within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // On a first run the seed's lines follow the address; wait for the last of them.
      if (listening && (!firstRun || /Try it with the MCP Inspector/.test(output))) {
        clearTimeout(timer);
        setTimeout(() => done({ child, output, baseUrl: listening[1]! }), 200);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
}

/** Stops the whole process group (npm, tsx and node) and waits for it, at most 15 s. */
async function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => started.child.once('exit', () => resolve()));
  try {
    process.kill(-started.child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-started.child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

let dataDir: string;
let running: Started | undefined;
let browser: Browser;
let callback: CallbackServer;
let owner: { email: string; password: string };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-npm-start-'));
  running = await npmStart(0, dataDir, true);
  // The owner's sign-in, as the first start prints it for the person who ran it.
  const printed = /Owner sign-in at \S+: (\S+) \/ (\S+)/.exec(running.output);
  expect(printed, running.output).not.toBeNull();
  owner = { email: printed![1]!, password: printed![2]! };
  // The Inspector by its package's name: a bare `npx mcp-inspector` outside this checkout names whatever package
  // holds that name, and the line carries a full-access token.
  expect(running.output).toMatch(/\n {4}npx @modelcontextprotocol\/inspector --cli http:\/\/127\.0\.0\.1:\d+\/api\/mcp /);
  expect(running.output).not.toMatch(/npx mcp-inspector/);
  callback = await callbackServer();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await stop(running);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('OAuth 2.1 against npm start', () => {
  const chat = () => new InMemoryOAuthClient('Sourdough Chat', callback.url);
  let client: InMemoryOAuthClient;
  const endpoint = () => new URL(`${running!.baseUrl}/api/mcp`);

  async function listSites(): Promise<{ ok: boolean; data?: { sites: unknown[] } }> {
    const mcp = new Client({ name: 'sourdough-chat', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: client }));
    const answer = (await mcp.callTool({ name: 'list_sites', arguments: {} })).structuredContent as { ok: boolean; data?: { sites: unknown[] } };
    await mcp.close();
    return answer;
  }

  it('rule:oauth-dynamic-client-registration rule:protected-resource-metadata — the SDK client, given only the endpoint, signs the owner in and reads their site', async () => {
    client = chat();
    const first = new Client({ name: 'sourdough-chat', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(endpoint(), { authProvider: client }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(client.opened).toHaveLength(1);
    const page = await browser.newPage();
    const consent = await consentInBrowser(page, client.opened[0]!, owner, [], 'oauth-npm-start-consent');
    expect(consent).toContain('Sourdough Chat');
    const redirected = await callback.next();
    await page.close();
    expect(redirected.searchParams.get('error'), redirected.href).toBeNull();
    const transport = new StreamableHTTPClientTransport(endpoint(), { authProvider: client });
    await transport.finishAuth(redirected.searchParams.get('code')!);
    expect(client.saved?.refresh_token).toBeTruthy();
    const answer = await listSites();
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    expect(answer.data!.sites).toHaveLength(1);
  }, 120_000);

  it('rule:oauth-state-survives-restart — after npm start is stopped and started again on the same data, the client still reads and refreshes without the owner', async () => {
    const port = Number(new URL(running!.baseUrl).port);
    await stop(running);
    running = await npmStart(port, dataDir, false);
    expect(running.output).not.toMatch(/Demo workspace seeded/);
    expect((await listSites()).ok).toBe(true);
    const before = client.saved!.access_token;
    expect(await auth(client, { serverUrl: endpoint().href })).toBe('AUTHORIZED');
    expect(client.saved!.access_token).not.toBe(before);
    expect((await listSites()).ok).toBe(true);
  }, 120_000);
});
