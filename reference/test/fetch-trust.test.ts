// The test-only TLS trust of the fixtures part fetch-allowlist-tls (rules migrate-ssrf-hardened,
// import-site-assets-revalidated, portable-site-assets-carried): the kit's website serves https with a test
// certificate, and a server in test mode trusts it for the https URLs of the origins the kit allowed and for nothing
// else, hop by hop; the production composition has no way to be given it. Runs the real transport against the kit's
// own loopback website (conformance/lib/test-website.ts), and a recording transport for the redirect case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAssets } from '../domain/import-merge.js';
import { safeFetch, UnsafeUrlError, type SafeFetchOptions } from '../infra/safe-fetch.js';
import { kitAsset, startTestWebsite, TEST_WEBSITE_CERTIFICATE, type TestWebsite } from '../../conformance/lib/test-website.js';
import { FIXTURES_SECRET, startTestServer, type TestServer } from './harness.js';

const LIMITS = { maxBytes: 1 << 20, timeoutMs: 5000, maxRedirects: 3 };

let website: TestWebsite;
let other: TestWebsite;
beforeAll(async () => {
  website = await startTestWebsite();
  other = await startTestWebsite();
});
afterAll(async () => {
  await website?.stop();
  await other?.stop();
});

describe('safeFetch and the test certificate rule:migrate-ssrf-hardened', () => {
  it('fetches an https loopback origin only when it is allowed and the certificate is given for it', async () => {
    const url = `${website.httpsUrl}/asset/trust.png`;
    const fetched = await safeFetch(url, { ...LIMITS, allowOrigins: [website.httpsUrl], allowCertificates: [TEST_WEBSITE_CERTIFICATE] });
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(kitAsset('trust'))).toBe(true);
    // Allowed but not trusted: the system's trust refuses the test certificate.
    await expect(safeFetch(url, { ...LIMITS, allowOrigins: [website.httpsUrl] })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    // Trusted but not allowed (no origin, or another one): refused by the address checks before any connection.
    const before = website.requested().length;
    await expect(safeFetch(url, { ...LIMITS, allowCertificates: [TEST_WEBSITE_CERTIFICATE] })).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(safeFetch(url, { ...LIMITS, allowOrigins: [website.url, other.httpsUrl], allowCertificates: [TEST_WEBSITE_CERTIFICATE] })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(website.requested().length).toBe(before);
  });

  it('hands the certificate to the transport for the allowed origin only, never for a hop a redirect leads elsewhere', async () => {
    const allowed = 'https://localhost:4443';
    const calls: { url: string; ca: unknown }[] = [];
    const options: SafeFetchOptions = {
      ...LIMITS,
      allowOrigins: [allowed],
      allowCertificates: [TEST_WEBSITE_CERTIFICATE],
      resolve: async (host) => (host === 'localhost' ? ['127.0.0.1'] : host === 'cdn.example' ? ['93.184.216.34'] : []),
      transport: async (url, _address, transportOptions) => {
        calls.push({ url: url.href, ca: transportOptions.ca });
        return url.origin === allowed
          ? { status: 302, headers: { location: 'https://cdn.example/moved.png' }, body: Buffer.alloc(0) }
          : { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('png') };
      },
    };
    await safeFetch(`${allowed}/start.png`, options);
    expect(calls).toEqual([
      { url: `${allowed}/start.png`, ca: [TEST_WEBSITE_CERTIFICATE] },
      { url: 'https://cdn.example/moved.png', ca: undefined },
    ]);
  });
});

describe('the trust in test mode only rule:import-site-assets-revalidated', () => {
  let production: TestServer;
  let testing: TestServer;
  beforeAll(async () => {
    production = await startTestServer('trust-production', {}, { fixtures: false });
    testing = await startTestServer('trust-testing');
  });
  afterAll(async () => {
    await production?.stop();
    await testing?.stop();
  });

  it('a server without test mode has no fixtures route to be given a certificate, trusts none, and skips the kit website unfetched', async () => {
    const answer = await fetch(`${production.url}/test-fixtures/v1/fetch-allowlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fixtures-secret': FIXTURES_SECRET },
      body: JSON.stringify({ origins: [website.httpsUrl], certificates: [TEST_WEBSITE_CERTIFICATE] }),
    });
    expect(answer.status).toBe(404);
    const net = production.server.parts.net;
    expect(net.allowOrigins ?? []).toEqual([]);
    expect(net.allowCertificates).toBeUndefined();
    const before = website.requested().length;
    const { kept, skipped } = await fetchAssets([{ key: 'loaf', url: `${website.httpsUrl}/asset/production.png` }], net);
    expect(kept).toEqual([]);
    expect(skipped).toEqual([{ url: `${website.httpsUrl}/asset/production.png`, reason: expect.stringContaining('default ports') }]);
    expect(website.requested().length).toBe(before);
  });

  it('in test mode, the certificate the kit gives is trusted for the origins it names and no other', async () => {
    await testing.fx.fetchAllowlist([website.url, website.httpsUrl], [TEST_WEBSITE_CERTIFICATE]);
    const net = testing.server.parts.net;
    expect(net.allowCertificates).toEqual([TEST_WEBSITE_CERTIFICATE]);
    const { kept, skipped } = await fetchAssets(
      [
        { key: 'named', url: `${website.httpsUrl}/asset/named.png` },
        { key: 'unnamed', url: `${other.httpsUrl}/asset/unnamed.png` },
      ],
      net,
    );
    expect(kept.map((a) => a.key)).toEqual(['named']);
    expect(skipped.map((s) => s.url)).toEqual([`${other.httpsUrl}/asset/unnamed.png`]);
    expect(other.requested()).not.toContain('/asset/unnamed.png');
    // Kept as a copy this server serves (rule portable-site-assets-carried): a path of its own, the bytes fetched,
    // the type its name says, nothing an SVG could run; a name that is not a kept file answers 404.
    const copied = await fetchAssets([{ key: 'copy', url: `${website.httpsUrl}/asset/copy.png` }], net, testing.server.parts.assetFiles);
    expect(copied.kept.map((a) => a.url)).toEqual([expect.stringMatching(/^\/assets\/[0-9a-f]{64}\.png$/)]);
    const served = await fetch(`${testing.url}${copied.kept[0]!.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(kitAsset('copy'))).toBe(true);
    for (const name of [`${'0'.repeat(64)}.png`, 'x.png', '..%2F..%2Fpackage.json', `${'a'.repeat(64)}.html`]) expect((await fetch(`${testing.url}/assets/${name}`)).status, name).toBe(404);
    // A new list without certificates takes the trust back.
    await testing.fx.fetchAllowlist([website.httpsUrl]);
    expect((await fetchAssets([{ key: 'again', url: `${website.httpsUrl}/asset/again.png` }], net)).skipped).toEqual([{ url: `${website.httpsUrl}/asset/again.png`, reason: 'could not be fetched' }]);
  });
});
