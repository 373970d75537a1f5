// Public site pages run no script and cannot be framed, sniffed or leak their address onward (rule
// public-site-security-headers); the owner's app pages carry frame protection too (rule app-pages-frame-protection).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../app.js';
import { FixturesClient, type WorldResponse } from '../../conformance/lib/fixtures-client.js';

let server: RunningServer;
let dir: string;
let world: WorldResponse;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-security-headers-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, fixturesSecret: 'test-secret', allowedHosts: [] });
  world = await new FixturesClient(server.url, 'test-secret').world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' }, published: true }] });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
  await res.text();
  return res;
};

/** The CSP as a map of directive name to its value. */
function csp(res: Response): Map<string, string> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(header.split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]));
}

describe('public site headers', () => {
  it('rule:public-site-security-headers — a published page forbids scripts, framing, sniffing and a full referrer', async () => {
    const site = world.sites.main!.websiteId;
    for (const path of [`/sites/${site}/`, `/sites/${site}`, `/sites/${site}/no-such-page`]) {
      const res = await get(path);
      expect([200, 404]).toContain(res.status);
      const policy = csp(res);
      expect(policy.get('default-src'), path).toBe("'none'");
      expect(policy.has('script-src'), path).toBe(false); // falls back to default-src 'none': no script at all
      expect(policy.get('frame-ancestors'), path).toBe("'none'");
      expect(policy.get('base-uri'), path).toBe("'none'");
      expect(policy.get('form-action'), path).toBe("'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
    expect((await get(`/sites/${site}/`)).status).toBe(200);
  });
});

describe('app page headers', () => {
  it('rule:app-pages-frame-protection — app pages and their redirects cannot be framed or sniffed and send no referrer', async () => {
    for (const path of ['/app/sign-in', '/app/', '/dashboard/connect']) {
      const res = await get(path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
    }
    const signIn = await get('/app/sign-in');
    expect(csp(signIn).get('frame-ancestors')).toBe("'none'");
    expect(csp(signIn).get('base-uri')).toBe("'none'");
  });
});
