// SSRF hardening of the import/migration fetcher (rules migrate-ssrf-hardened, import-site-assets-revalidated).
// Most tests inject the transport and resolver, so they need no network and prove every hop is checked. The
// "real network path" block injects neither: it talks to a loopback node:http server through real DNS and the
// pinned transport, reachable only through the test-only allowOrigins option. The attack table is in
// ssrf-table.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUrl, isPublicAddress, safeFetch, UnsafeUrlError, type SafeFetchOptions } from '../infra/safe-fetch.js';

const resolveTo = (map: Record<string, string[]>) => async (host: string) => map[host] ?? [];

describe('isPublicAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '224.0.0.1', '255.255.255.255'])(
    'rule:migrate-ssrf-hardened — refuses %s',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );
  it.each(['93.184.216.34', '2606:2800:220:1::1'])('accepts public %s', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('checkUrl', () => {
  const resolve = resolveTo({ 'public.example': ['93.184.216.34'], 'sneaky.example': ['93.184.216.34', '10.0.0.5'], 'metadata.example': ['169.254.169.254'] });
  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['gopher://public.example/', 'scheme'],
    ['http://public.example:8080/', 'default ports'],
    ['http://user:pw@public.example/', 'credentials'],
    ['http://127.0.0.1/', 'non-public'],
    ['http://[::1]/', 'non-public'],
    ['http://sneaky.example/', 'non-public'],
    ['http://metadata.example/latest', 'non-public'],
    ['http://nowhere.example/', 'does not resolve'],
  ])('rule:migrate-ssrf-hardened — refuses %s', async (url, why) => {
    await expect(checkUrl(url, resolve)).rejects.toThrow(new RegExp(why));
  });
  it('accepts a public https URL and returns the checked address to pin', async () => {
    expect((await checkUrl('https://public.example/a.png', resolve)).address).toBe('93.184.216.34');
  });
});

describe('safeFetch', () => {
  const resolve = resolveTo({ 'public.example': ['93.184.216.34'], 'internal.example': ['10.0.0.1'] });
  const base: SafeFetchOptions = { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 2, resolve };

  it('rule:migrate-ssrf-hardened — re-checks a redirect target and refuses a hop to a private address', async () => {
    const hops: string[] = [];
    const transport: SafeFetchOptions['transport'] = async (url, address) => {
      hops.push(`${url.host}@${address}`);
      return { status: 302, headers: { location: 'http://internal.example/secret' }, body: Buffer.alloc(0) };
    };
    await expect(safeFetch('https://public.example/start', { ...base, transport })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(hops).toEqual(['public.example@93.184.216.34']);
  });

  it('stops after maxRedirects', async () => {
    const transport: SafeFetchOptions['transport'] = async (url) => ({ status: 301, headers: { location: `${url.href}x` }, body: Buffer.alloc(0) });
    await expect(safeFetch('https://public.example/', { ...base, transport })).rejects.toThrow('too many redirects');
  });

  it('connects to the address it checked (no second resolution)', async () => {
    let pinned = '';
    const transport: SafeFetchOptions['transport'] = async (_url, address) => ((pinned = address), { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('x') });
    const res = await safeFetch('https://public.example/a.png', { ...base, transport });
    expect(pinned).toBe('93.184.216.34');
    expect(res.contentType).toBe('image/png');
  });
});

describe('safeFetch, real network path (no injected transport or resolver)', () => {
  let server: Server;
  let port = 0;
  let origin = '';
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const redirect = (location: string) => res.writeHead(302, { location }).end();
      switch (req.url) {
        case '/hello': res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from loopback'); return;
        case '/to-hello': redirect('/hello'); return;
        case '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'); return;
        case '/to-v4-compatible': redirect('http://[::127.0.0.1]/'); return;
        case '/to-ip-literal': redirect(`http://127.0.0.1:${port}/hello`); return;
        case '/big': res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096)); return;
        default: res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolveListen());
    });
    port = (server.address() as AddressInfo).port;
    origin = `http://localhost:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  });

  // Only the loopback origin is allowed; everything else about the fetch is the production path.
  const options = (): SafeFetchOptions => ({ maxBytes: 1000, timeoutMs: 3000, maxRedirects: 3, allowOrigins: [origin] });

  it('rule:import-site-assets-revalidated — fetches a URL given by host name through real DNS and the pinned connection', async () => {
    const res = await safeFetch(`${origin}/hello`, options());
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/plain');
    expect(res.body.toString()).toBe('hello from loopback');
  });

  it('rule:migrate-ssrf-hardened — follows a redirect to another path on the allowed origin', async () => {
    const res = await safeFetch(`${origin}/to-hello`, options());
    expect(res.url).toBe(`${origin}/hello`);
    expect(res.body.toString()).toBe('hello from loopback');
  });

  it.each([
    ['/to-metadata', /non-public/],
    ['/to-v4-compatible', /non-public/],
    ['/to-ip-literal', /default ports/], // same server, other origin: the allow-list does not carry over
  ])('rule:migrate-ssrf-hardened — refuses a real redirect from the allowed origin via %s', async (path, why) => {
    seen.length = 0;
    await expect(safeFetch(`${origin}${path}`, options())).rejects.toThrow(why);
    expect(seen).toEqual([path]);
  });

  it('rule:import-site-assets-revalidated — caps the body on the real path', async () => {
    await expect(safeFetch(`${origin}/big`, options())).rejects.toThrow(/over 1000 bytes/);
  });

  it('rule:migrate-ssrf-hardened — without the allow-list the same loopback URL is refused', async () => {
    await expect(safeFetch(`${origin}/hello`, { ...options(), allowOrigins: undefined })).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(checkUrl(`${origin}/hello`, async () => ['127.0.0.1'], [`http://localhost:${port + 1}`, `https://localhost:${port}`])).rejects.toThrow(/default ports/);
  });
});
