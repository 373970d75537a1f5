// The app's session cookie carries Secure whenever the public base URL is https, even when this process itself
// listens on plain http behind a TLS-terminating proxy (rule session-cookie-secure-over-https). The servers here
// listen on loopback; only the configured base URL differs.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { buildWorld } from '../testing/world.js';

const started: { server: RunningServer; dir: string }[] = [];

afterEach(async () => {
  for (const { server, dir } of started.splice(0)) {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** A free loopback port: RunningServer names only its base URL, which here is not the address it listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function serverWithBaseUrl(baseUrl: string | undefined) {
  const dir = await mkdtemp(join(tmpdir(), 'site-mcp-session-cookie-'));
  const port = await freePort();
  const server = await startServer({ host: '127.0.0.1', port, dataDir: dir, allowedHosts: [], ...(baseUrl ? { baseUrl } : {}) });
  started.push({ server, dir });
  const world = await buildWorld(server.parts.store, { users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] }, new Date());
  return { server, port, user: world.users.olive! };
}

/** POST a form to the server's loopback socket, naming `host` in the Host header; answers status and Set-Cookie. */
function postForm(port: number, host: string, path: string, form: Record<string, string>, cookie?: string): Promise<{ status: number; setCookie: string[] }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...(cookie ? { cookie } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [] }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('session cookie', () => {
  it('rule:session-cookie-secure-over-https — Secure on sign-in and sign-out when the base URL is https', async () => {
    const { port, user } = await serverWithBaseUrl('https://site.example');
    const signIn = await postForm(port, 'site.example', '/app/sign-in', { email: user.email, password: user.password, next: '/app/' });
    expect(signIn.status).toBe(302);
    const session = signIn.setCookie.find((c) => c.startsWith('smcp_session='))!;
    expect(session).toMatch(/;\s*secure/i);
    expect(session).toMatch(/;\s*httponly/i);
    expect(session).toMatch(/;\s*samesite=strict/i);
    const signOut = await postForm(port, 'site.example', '/app/sign-out', {}, session.split(';')[0]);
    expect(signOut.setCookie.find((c) => c.startsWith('smcp_session='))).toMatch(/;\s*secure/i);
  });

  it('rule:session-cookie-secure-over-https — no Secure when the base URL is plain http (a browser would drop it)', async () => {
    const { server, port, user } = await serverWithBaseUrl(undefined);
    const signIn = await postForm(port, new URL(server.url).host, '/app/sign-in', { email: user.email, password: user.password, next: '/app/' });
    expect(signIn.status).toBe(302);
    expect(signIn.setCookie.find((c) => c.startsWith('smcp_session='))).not.toMatch(/;\s*secure/i);
  });
});
