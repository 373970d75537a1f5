// Rule migrate-crawl-work-bounded: a fetch of the importer ends within its time however slowly the source sends,
// and goes to the checked address itself, never through a proxy named in the environment. The source here is a
// loopback server reached through the test-only allowOrigins option; everything else is the production path.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../infra/crawler.js';
import { dnsResolve, safeFetch, systemResolve, type SafeFetchOptions } from '../infra/safe-fetch.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Answers /drip with one byte every 100 ms, never ending before 20 s; a slow redirect chain; a plain page. */
function dripServer(): Server {
  return createServer((req, res) => {
    if (req.url === '/hello') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hello</p>');
    if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      return void setTimeout(() => res.writeHead(302, { location: `/hop/${n + 1}` }).end(), 400);
    }
    if (req.url === '/' || req.url === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      let sent = 0;
      const timer = setInterval(() => {
        if (++sent > 200 || res.destroyed) return void (clearInterval(timer), res.end());
        res.write('<');
      }, 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end();
  });
}

describe('rule:migrate-crawl-work-bounded — a fetch ends within its time', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = dripServer();
    origin = await listen(server);
  });
  afterAll(() => close(server));

  const options = (timeoutMs: number): SafeFetchOptions => ({ maxBytes: 1 << 20, timeoutMs, maxRedirects: 5, allowOrigins: [origin] });

  it('ends a body sent a byte every 100 ms at its time, though the socket is never silent for long', async () => {
    const started = Date.now();
    await expect(safeFetch(`${origin}/drip`, options(800))).rejects.toThrow(/no whole answer within 800 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('counts the time over every redirect hop, not per hop', async () => {
    // Each hop takes 400 ms, under the fetch's 1,000 ms, and five of them do not fit.
    const started = Date.now();
    await expect(safeFetch(`${origin}/hop/0`, options(1_000))).rejects.toThrow(/no whole answer within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('counts a lookup that never answers and a transport that never answers', async () => {
    const never = () => new Promise<never>(() => {});
    const base = { maxBytes: 1000, timeoutMs: 300, maxRedirects: 0 };
    await expect(safeFetch('https://public.example/', { ...base, resolve: never })).rejects.toThrow(/^no whole answer within 300 ms$/);
    await expect(safeFetch('https://public.example/', { ...base, resolve: async () => ['93.184.216.34'], transport: never })).rejects.toThrow(/no whole answer within 300 ms/);
  });

  it('still fetches an ordinary page well within its time', async () => {
    expect((await safeFetch(`${origin}/hello`, options(2_000))).body.toString()).toBe('<p>hello</p>');
  });

  it('lets a crawl of a dripping website end by its deadline, the page counted as failed', async () => {
    const started = Date.now();
    const result = await crawl(`${origin}/`, { maxPages: 5, limits: { robotsMaxBytes: 1000, robotsMatchCharacters: 100_000, robotsMatchSlice: 10_000, urlMaxCharacters: 100, fetchSeconds: 1, deadlineSeconds: 2, migrationSeconds: 4 }, fetch: { allowOrigins: [origin] } });
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(result.pages).toHaveLength(0);
    expect(result.failed.map((f) => f.url)).toEqual([`${origin}/`]);
  });
});

describe('rule:migrate-ssrf-names-resolved — the fetcher never goes through a proxy named in the environment', () => {
  let website: Server;
  let proxy: Server;
  let origin: string;
  let proxyUrl: string;
  const proxied: string[] = [];
  beforeAll(async () => {
    website = dripServer();
    origin = await listen(website);
    proxy = createServer((req, res) => {
      proxied.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>from the proxy</p>');
    });
    proxyUrl = (await listen(proxy)).replace('localhost', '127.0.0.1');
  });
  afterAll(async () => {
    await close(website);
    await close(proxy);
  });

  it('connects to the checked address while Node\'s own agents go through the proxy', async () => {
    // A child with NODE_USE_ENV_PROXY: its global agent sends a plain request to the proxy (so the proxy is really
    // in force there), and safeFetch's request goes to the website.
    const script = `
      import { get } from 'node:http';
      import { safeFetch } from './reference/infra/safe-fetch.ts';
      const plain = await new Promise((resolve, reject) => get(process.env.ORIGIN + '/hello', (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve(b)); }).on('error', reject));
      const fetched = await safeFetch(process.env.ORIGIN + '/hello', { maxBytes: 1000, timeoutMs: 5000, maxRedirects: 0, allowOrigins: [process.env.ORIGIN] });
      console.log(JSON.stringify({ plain, fetched: fetched.body.toString() }));
    `;
    const env = { ...process.env, NODE_OPTIONS: '', NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxyUrl, http_proxy: proxyUrl, NO_PROXY: '', no_proxy: '', ORIGIN: origin };
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (err += d));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err.slice(-2000)}`))));
    });
    expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual({ plain: '<p>from the proxy</p>', fetched: '<p>hello</p>' });
    expect(proxied).toEqual([`${origin}/hello`]);
  }, 30_000);
});

describe('rule:migrate-crawl-work-bounded — a slow name server holds none of the threads file writes need', () => {
  it('answers [] for names of a server that never answers, while file reads go on', async () => {
    // A name server that reads every question and answers none.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
    try {
      const resolve = dnsResolve([`127.0.0.1:${silent.address().port}`]);
      const started = Date.now();
      // Eight lookups at once: with getaddrinfo they would take every thread of libuv's pool (four) for their time.
      const lookups = Promise.all(Array.from({ length: 8 }, (_, i) => resolve(`slow-${i}.example`)));
      const readStarted = Date.now();
      for (let i = 0; i < 5; i++) await readFile(fileURLToPath(import.meta.url));
      expect(Date.now() - readStarted).toBeLessThan(500);
      expect(await lookups).toEqual(Array.from({ length: 8 }, () => []));
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  }, 20_000);

  it('resolves localhost names to loopback without asking, so they are refused as loopback outside a test origin', async () => {
    expect(await systemResolve('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(await systemResolve('shop.localhost')).toEqual(['127.0.0.1', '::1']);
    await expect(safeFetch('http://localhost/', { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 0 })).rejects.toThrow(/non-public address \(127\.0\.0\.1\)/);
  });
});
