// SSRF attack table for the import/migration fetcher (rules migrate-ssrf-hardened, import-site-assets-revalidated).
// Each attack URL names the reason it must be refused, so a URL refused for the wrong reason (say "does not
// resolve" instead of "non-public") is caught too. Names resolve through an injected resolver and redirects come
// from an injected transport: nothing here touches the network (the real path is in safe-fetch.test.ts).
import { describe, expect, it } from 'vitest';
import { checkUrl, isPublicAddress, safeFetch, UnsafeUrlError, type SafeFetchOptions } from '../infra/safe-fetch.js';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1::1';

const names: Record<string, string[]> = {
  'public.example': [PUBLIC_V4],
  'public6.example': [PUBLIC_V6],
  localhost: ['127.0.0.1', '::1'],
  'loopback.example': ['127.0.0.1'],
  'mixed.example': [PUBLIC_V4, '10.0.0.5'], // one public, one private: the private one decides
  'mixed6.example': [PUBLIC_V6, '::1'],
  'private-last.example': [PUBLIC_V4, PUBLIC_V6, '192.168.1.20'],
  'metadata.example': ['169.254.169.254'],
  'alibaba-metadata.example': ['100.100.100.200'],
  'ec2-v6-metadata.example': ['fd00:ec2::254'],
  'v4compat.example': ['::7f00:1'],
  'mapped.example': ['::ffff:10.0.0.5'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.example': ['2002:a00:5::1'],
  'teredo.example': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'zone.example': ['fe80::1%eth0'],
  'ula.example': ['fd12:3456::1'],
  'cgnat.example': ['100.64.1.1'],
  'unspecified.example': ['0.0.0.0'],
};
const resolve = async (host: string) => names[host] ?? [];

type Reason = 'non-public' | 'scheme' | 'default ports' | 'credentials' | 'not a valid URL';

// [attack URL, why it must be refused]
const ATTACKS: [string, Reason][] = [
  // IPv4 literal encodings the URL parser normalises to loopback / private / metadata
  ['http://2130706433/', 'non-public'], // decimal 127.0.0.1
  ['http://0177.0.0.1/', 'non-public'], // octal
  ['http://0x7f.0.0.1/', 'non-public'], // hex octet
  ['http://0x7f000001/', 'non-public'], // hex dword
  ['http://017700000001/', 'non-public'], // octal dword
  ['http://127.1/', 'non-public'], // short form
  ['http://127.0.1/', 'non-public'],
  ['http://0/', 'non-public'], // 0.0.0.0
  ['http://0.0.0.0/', 'non-public'],
  ['http://127.0.0.1./', 'non-public'], // trailing dot
  ['http://%31%32%37.0.0.1/', 'non-public'], // percent-encoded
  ['http://\uff11\uff12\uff17.0.0.1/', 'non-public'], // full-width digits
  ['http://127.255.255.254/', 'non-public'],
  ['http://10.0.0.1/', 'non-public'],
  ['http://172.16.0.1/', 'non-public'],
  ['http://172.31.255.255/', 'non-public'],
  ['http://192.168.0.1/', 'non-public'],
  ['http://2852039166/', 'non-public'], // decimal 169.254.169.254
  ['http://0xa9fea9fe/', 'non-public'], // hex 169.254.169.254
  // IPv6 literals, including every way of embedding an IPv4 address
  ['http://[::1]/', 'non-public'],
  ['http://[0:0:0:0:0:0:0:1]/', 'non-public'],
  ['http://[::]/', 'non-public'],
  ['http://[::127.0.0.1]/', 'non-public'], // IPv4-compatible ::/96
  ['http://[::7f00:1]/', 'non-public'],
  ['http://[::169.254.169.254]/', 'non-public'],
  ['http://[::10.0.0.5]/', 'non-public'],
  ['http://[::8.8.8.8]/', 'non-public'], // embeds a public IPv4 address: still refused, ::/96 is deprecated
  ['http://[::ffff:127.0.0.1]/', 'non-public'], // IPv4-mapped, dotted
  ['http://[::ffff:7f00:1]/', 'non-public'], // IPv4-mapped, hex
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'non-public'],
  ['http://[::ffff:a9fe:a9fe]/', 'non-public'], // mapped metadata address
  ['http://[::ffff:0:7f00:1]/', 'non-public'], // IPv4-translated ::ffff:0:0:0/96
  ['http://[2002:7f00:1::]/', 'non-public'], // 6to4 of 127.0.0.1
  ['http://[2002:a00:5::1]/', 'non-public'], // 6to4 of 10.0.0.5
  ['http://[2002:a9fe:a9fe::]/', 'non-public'], // 6to4 of 169.254.169.254
  ['http://[64:ff9b::7f00:1]/', 'non-public'], // NAT64 well-known prefix
  ['http://[64:ff9b::169.254.169.254]/', 'non-public'],
  ['http://[64:ff9b:1::a00:5]/', 'non-public'], // NAT64 local-use prefix
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'non-public'], // Teredo
  ['http://[2001::1]/', 'non-public'],
  ['http://[fe80::1]/', 'non-public'], // link-local
  ['http://[fe80::1%25eth0]/', 'not a valid URL'], // link-local with zone: the URL parser rejects zones
  ['http://[fc00::1]/', 'non-public'], // unique-local
  ['http://[fd12:3456::1]/', 'non-public'],
  ['http://[fec0::1]/', 'non-public'], // deprecated site-local
  ['http://[ff02::1]/', 'non-public'], // multicast
  ['http://[ff05::1:3]/', 'non-public'],
  ['http://[100::1]/', 'non-public'], // discard
  ['http://[2001:db8::1]/', 'non-public'], // documentation
  ['http://[3fff::1]/', 'non-public'], // documentation (RFC 9637)
  ['http://[2001:2::1]/', 'non-public'], // benchmarking
  ['http://[5f00::1]/', 'non-public'], // segment routing, outside 2000::/3
  // Cloud metadata endpoints
  ['http://169.254.169.254/latest/meta-data/', 'non-public'],
  ['http://169.254.170.2/v2/credentials', 'non-public'], // ECS task metadata
  ['http://100.100.100.200/latest/meta-data/', 'non-public'], // Alibaba Cloud
  ['http://[fd00:ec2::254]/latest/meta-data/', 'non-public'], // EC2 IPv6
  ['http://192.0.0.192/', 'non-public'], // IETF protocol assignments block
  // CGNAT, benchmarking, documentation, reserved, multicast, broadcast
  ['http://100.64.0.1/', 'non-public'],
  ['http://100.127.255.254/', 'non-public'],
  ['http://198.18.0.1/', 'non-public'],
  ['http://198.19.255.255/', 'non-public'],
  ['http://192.0.2.1/', 'non-public'],
  ['http://198.51.100.7/', 'non-public'],
  ['http://203.0.113.9/', 'non-public'],
  ['http://192.88.99.1/', 'non-public'],
  ['http://240.0.0.1/', 'non-public'],
  ['http://224.0.0.1/', 'non-public'],
  ['http://239.255.255.250/', 'non-public'],
  ['http://255.255.255.255/', 'non-public'],
  // Userinfo and parser-confusion tricks
  ['http://public.example@127.0.0.1/', 'credentials'],
  ['http://public.example:80@10.0.0.1/', 'credentials'],
  ['http://user:pw@public.example/', 'credentials'],
  ['http://127.0.0.1#@public.example/', 'non-public'],
  ['http://127.0.0.1\\@public.example/', 'non-public'], // backslash is a path separator in special URLs
  ['http://127.0.0.1?@public.example/', 'non-public'],
  // Non-default ports
  ['http://public.example:8080/', 'default ports'],
  ['https://public.example:8443/', 'default ports'],
  ['http://public.example:22/', 'default ports'],
  ['http://public.example:6379/', 'default ports'],
  ['http://public.example:25/', 'default ports'],
  // Non-http schemes
  ['file:///etc/passwd', 'scheme'],
  ['gopher://public.example/_GET', 'scheme'],
  ['ftp://public.example/', 'scheme'],
  ['dict://public.example:11211/stat', 'scheme'],
  ['ldap://public.example/', 'scheme'],
  ['ws://public.example/', 'scheme'],
  ['data:text/plain,hello', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  // Names resolving to non-public addresses (injected resolver)
  ['http://localhost/', 'non-public'],
  ['http://loopback.example/', 'non-public'],
  ['http://mixed.example/', 'non-public'],
  ['http://mixed6.example/', 'non-public'],
  ['http://private-last.example/', 'non-public'],
  ['http://metadata.example/latest/meta-data/', 'non-public'],
  ['http://alibaba-metadata.example/', 'non-public'],
  ['http://ec2-v6-metadata.example/', 'non-public'],
  ['http://v4compat.example/', 'non-public'],
  ['http://mapped.example/', 'non-public'],
  ['http://nat64.example/', 'non-public'],
  ['http://sixtofour.example/', 'non-public'],
  ['http://teredo.example/', 'non-public'],
  ['http://zone.example/', 'non-public'],
  ['http://ula.example/', 'non-public'],
  ['http://cgnat.example/', 'non-public'],
  ['http://unspecified.example/', 'non-public'],
  // Not URLs at all
  ['http://', 'not a valid URL'],
  ['http://[::1/', 'not a valid URL'],
];

// Redirect targets served by a public first hop; each must be refused before any connection to it.
const REDIRECT_TARGETS = [
  'http://127.0.0.1/',
  'http://localhost/admin',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[::169.254.169.254]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:10.0.0.5]/',
  'http://[fd00:ec2::254]/',
  'http://2130706433/',
  'http://mixed.example/',
  'http://metadata.example/',
  'http://public.example:8080/',
  'http://user@public.example/',
  'file:///etc/passwd',
  'gopher://public.example/',
  '//10.0.0.1/protocol-relative',
];

describe('SSRF attack table', () => {
  it('has at least 60 attack URLs', () => {
    expect(ATTACKS.length + REDIRECT_TARGETS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(ATTACKS)('rule:migrate-ssrf-hardened — checkUrl refuses %s (%s)', async (url, reason) => {
    await expect(checkUrl(url, resolve)).rejects.toThrow(UnsafeUrlError);
    await expect(checkUrl(url, resolve)).rejects.toThrow(new RegExp(reason));
  });

  it.each(ATTACKS)('rule:import-site-assets-revalidated — safeFetch refuses %s without connecting (%s)', async (url) => {
    let connections = 0;
    const transport: SafeFetchOptions['transport'] = async () => (connections++, { status: 200, headers: {}, body: Buffer.from('secret') });
    await expect(safeFetch(url, { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 2, resolve, transport })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(connections).toBe(0);
  });

  it.each(REDIRECT_TARGETS)('rule:migrate-ssrf-hardened — refuses a redirect from a public host to %s', async (target) => {
    const hops: string[] = [];
    const transport: SafeFetchOptions['transport'] = async (url, address) => {
      hops.push(`${url.href}@${address}`);
      return { status: 302, headers: { location: target }, body: Buffer.alloc(0) };
    };
    await expect(safeFetch('https://public.example/start', { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 3, resolve, transport })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(hops).toEqual([`https://public.example/start@${PUBLIC_V4}`]);
  });
});

describe('isPublicAddress table', () => {
  it.each([
    '::7f00:1', '::a9fe:a9fe', '::a00:5', '::808:808', '::ffff:8.8.8.8', '::ffff:0:808:808', '2002:808:808::1',
    '64:ff9b::808:808', '64:ff9b:1::808:808', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '2001:2::1',
    '3fff::1', '2620:4f:8000::1', 'fd00:ec2::254', 'fe80::1%eth0', 'ff02::1', '::', '::1', '100::1',
    '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.51.100.1', '203.0.113.1', '240.0.0.1', '192.88.99.1', '100.100.100.200',
    'not-an-address', '',
  ])('rule:migrate-ssrf-hardened — refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '151.101.1.69', '2606:2800:220:1::1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'])(
    'rule:migrate-ssrf-hardened — accepts public %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each(['https://public.example/a.png', 'http://public6.example/', `http://${PUBLIC_V4}/`, `https://[${PUBLIC_V6}]/`, 'https://public.example:443/', 'http://public.example:80/'])(
    'rule:import-site-assets-revalidated — checkUrl accepts public %s',
    async (url) => expect((await checkUrl(url, resolve)).url.href).toBeTruthy(),
  );
});
