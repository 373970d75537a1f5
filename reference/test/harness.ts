// Shared pieces of the reference's own tests: a real server in this process on a fresh data directory with the
// fixtures protocol on, an owner with a connection, and a POST sent from a chosen loopback address (per-address
// throttles). Each test file starts its own server and stops it, so files stay independent.
import { mkdtemp, rm } from 'node:fs/promises';
import { postFromAddress } from '../../conformance/lib/local-address.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type Composition, type RunningServer } from '../app.js';
import type { Config, Services } from '../services.js';
import type { DecisionLimits } from '../catalogue.js';
import { testMode } from '../testing/index.js';
import { FixturesClient, type WorldRequest, type WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

export const FIXTURES_SECRET = 'test-secret';

export interface TestServer {
  server: RunningServer;
  url: string;
  dir: string;
  fx: FixturesClient;
  stop(): Promise<void>;
}

/**
 * Starts the reference on loopback, port 0, a fresh data directory and, unless `fixtures` is false, in test mode
 * (the fixtures protocol, reference/testing/). `fakes` replace services (services.ts) before test mode decorates
 * them; a test that injects one is matched by one that runs the real service (AGENTS.md, "Seams for tests").
 */
export async function startTestServer(
  name: string,
  config: Partial<Config> = {},
  { fixtures = true, fakes = {}, decisionLimits }: { fixtures?: boolean; fakes?: Partial<Services>; decisionLimits?: DecisionLimits } = {},
): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), `site-mcp-${name}-`));
  // decisionLimits: other values of our decision limits, as a correct variant runs with (--decision-limits).
  const compositions: Composition[] = [{ services: (services) => ({ ...services, ...fakes }) }, ...(fixtures ? [testMode(FIXTURES_SECRET, decisionLimits ? { decisionLimits } : {})] : [])];
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [], ...config }, ...compositions);
  return {
    server,
    url: server.url,
    dir,
    fx: new FixturesClient(server.url, FIXTURES_SECRET),
    stop: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A world whose user `owner` owns site `main` (unless `request` says otherwise), and a connection with `scopes`.
 * Its users come without passwords (passwordsOnDemand, unless `request` says otherwise): they act through the
 * connection, and each password costs one scrypt.
 */
export async function ownerWithConnection(test: TestServer, scopes: string[], request: Partial<WorldRequest> = {}, reach: 'website' | 'workspace' = 'website') {
  const world: WorldResponse = await test.fx.world({ passwordsOnDemand: true, users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }], ...request });
  const websiteId = world.sites.main!.websiteId;
  const { token, connectionId } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId, reach, scopes });
  return { world, workspaceId: world.workspaceId, websiteId, token, connectionId, mcp: new McpConnection(test.url, token) };
}

export interface PostAnswer { status: number; retryAfter: string | undefined; text: string }

/** POSTs `body` to `path` from the loopback address `from` (all of 127.0.0.0/8 is loopback on Linux). */
export async function postFrom(baseUrl: string, path: string, from: string, contentType: string, body: string): Promise<PostAnswer> {
  const res = await postFromAddress(new URL(path, baseUrl).href, from, { 'content-type': contentType }, body);
  return { status: res.status, retryAfter: res.headers.get('retry-after') ?? undefined, text: await res.text() };
}

/** Signs `user` in through the app's sign-in form, as a browser posts it; answers the session's cookie pair. */
export async function signInCookie(baseUrl: string, user: { email: string; password?: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: user.email, password: String(user.password), next: '/app/' }),
  });
  if (res.status !== 302) throw new Error(`signing in as ${user.email} answered HTTP ${res.status}, not 302`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** A page of the app as the holder of `cookie` sees it, redirects not followed. */
export async function appPage(baseUrl: string, path: string, cookie: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: { cookie } });
  return { status: res.status, html: await res.text() };
}
