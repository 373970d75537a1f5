// SSRF hardening of the import/migration fetcher (rules migrate-ssrf-hardened, import-site-assets-revalidated).
// The transport and resolver are injected, so these tests need no network and prove every hop is checked.
import { describe, expect, it } from 'vitest';
import { checkUrl, isPublicAddress, safeFetch, UnsafeUrlError, type SafeFetchOptions } from '../domain/safe-fetch.js';

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
