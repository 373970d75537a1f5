// Public site pages run no script and cannot be framed, sniffed or leak their address onward (rule
// public-site-security-headers); the owner's app pages carry frame protection too (rule app-pages-frame-protection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let world: WorldResponse;

beforeAll(async () => {
  test = await startTestServer('security-headers');
  world = await test.fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' }, published: true }] });
});

afterAll(async () => {
  await test?.stop();
});

const get = async (path: string) => {
  const res = await fetch(`${test.url}${path}`, { redirect: 'manual' });
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
