// What one captured page, and one workspace's captures, may cost the server: a page's fetches read no more
// than its byte budget however many large images it names, none buffered whole and encoded at once (rule
// capture-bytes-bounded), and the capture browser serves workspaces in turn with a bounded wait, so one tenant's
// slow pages cannot hold another's migration (rule capture-fair-between-workspaces). One capture browser at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { CaptureBusyError, chromiumCapture, type CaptureEngine, type CaptureRequest } from '../infra/capture.js';
import { UnsafeUrlError } from '../infra/safe-fetch.js';
import { loadLimits } from '../../spec/index.js';
import type { Network } from '../infra/safe-fetch.js';
import { TEST_CHROMIUM } from './chromium.js';
import { startTestServer } from './harness.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

const MB = 1024 * 1024;
let engine: CaptureEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

describe('a captured page\'s byte budget (rule capture-bytes-bounded)', () => {
  it('rule:capture-bytes-bounded — a page of twelve 2 MB images reads no more than its budget, and is still captured', async () => {
    const images = 12;
    const budget = 6 * MB;
    const page = `<html><body><h1>Gallery</h1>${Array.from({ length: images }, (_, i) => `<img src="/i${i}.png" width="40" height="40" alt="i${i}">`).join('')}</body></html>`;
    let read = 0;
    let asked = 0;
    const web: Network = {
      resolve: async (host) => (host === 'gallery.example' ? ['93.184.216.34'] : []),
      transport: async (url, _address, { maxBytes }) => {
        const body = url.pathname === '/' ? Buffer.from(page) : Buffer.alloc(2 * MB, 7);
        if (url.pathname !== '/') asked += 1;
        // As the real transport stops reading past maxBytes (safe-fetch.ts httpTransport).
        if (body.length > maxBytes) throw new UnsafeUrlError(`response over ${maxBytes} bytes`);
        read += body.length;
        return { status: 200, headers: { 'content-type': url.pathname === '/' ? 'text/html' : 'image/png' }, body };
      },
    };
    engine = chromiumCapture({ executablePath: TEST_CHROMIUM, pageBytes: budget });
    const capture = await engine.capture('https://gallery.example/', web);
    expect(capture.regions.flatMap((r) => r.boxes)).toContainEqual(expect.objectContaining({ kind: 'text', text: 'Gallery' }));
    expect(asked).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(budget);
  }, 60_000);

  it('rule:capture-bytes-bounded — the budget is spec/limits.json capture.pageBytes', () => {
    expect(loadLimits().capture.pageBytes).toBeGreaterThanOrEqual(5 * MB);
  });
});

describe('captures served to workspaces in turn (rule capture-fair-between-workspaces)', () => {
  const SLOW_MS = 500;
  /** slow.example answers after SLOW_MS, fast.example at once; both 404, so no browser is ever started. */
  function web(fetched: string[]): Network {
    return {
      resolve: async (host) => (host.endsWith('.example') ? ['93.184.216.34'] : []),
      transport: async (url) => {
        fetched.push(url.href);
        if (url.hostname === 'slow.example') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
        return { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('no') };
      },
    };
  }

  it('rule:capture-fair-between-workspaces — workspace B waits for one of A\'s six slow pages, not all six', async () => {
    const fetched: string[] = [];
    const net = web(fetched);
    engine = chromiumCapture({ executablePath: '/nonexistent/chromium' });
    const a = Array.from({ length: 6 }, (_, i) => engine!.capture(`https://slow.example/${i}`, net, { tenant: 'ws_a' }).catch(() => 'failed'));
    const started = Date.now();
    await engine.capture('https://fast.example/', net, { tenant: 'ws_b' }).catch(() => 'failed');
    const waitedB = Date.now() - started;
    await Promise.all(a);
    const allOfA = Date.now() - started;
    // B was served right after A's first page: under two of A's pages, against six before.
    expect(waitedB).toBeLessThan(2 * SLOW_MS);
    expect(allOfA).toBeGreaterThanOrEqual(6 * SLOW_MS - 50);
    expect(fetched.indexOf('https://fast.example/')).toBe(1);
  }, 30_000);

  it('rule:capture-fair-between-workspaces — a caller waits no longer than it said: CaptureBusyError, nothing fetched', async () => {
    const fetched: string[] = [];
    const net = web(fetched);
    engine = chromiumCapture({ executablePath: '/nonexistent/chromium' });
    const a = Array.from({ length: 4 }, (_, i) => engine!.capture(`https://slow.example/${i}`, net, { tenant: 'ws_a' }).catch(() => 'failed'));
    const started = Date.now();
    // A's own fifth page waits behind its four (2 s), but says it will wait 400 ms.
    await expect(engine.capture('https://slow.example/late', net, { tenant: 'ws_a', waitMs: 400 })).rejects.toBeInstanceOf(CaptureBusyError);
    expect(Date.now() - started).toBeLessThan(4 * SLOW_MS);
    await Promise.all(a);
    expect(fetched).not.toContain('https://slow.example/late');
  }, 30_000);
});

describe('a migration while the capture browser is busy (rule capture-fair-between-workspaces)', () => {
  it('rule:capture-fair-between-workspaces — asks for its workspace\'s turn with a bounded wait, and queues its pages when refused', async () => {
    const requests: CaptureRequest[] = [];
    const busy: CaptureEngine = {
      available: async () => true,
      capture: async (_url, _net, request = {}) => {
        requests.push(request);
        throw new CaptureBusyError('busy');
      },
      close: async () => undefined,
    };
    const site: Network = {
      resolve: async (host) => (host === 'rosa.example' ? ['93.184.216.34'] : []),
      transport: async (url) =>
        url.pathname === '/robots.txt'
          ? { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('') }
          : { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<html><head><title>Rosa</title></head><body><h1>Rosa ${url.pathname}</h1><a href="/a">a</a><a href="/b">b</a></body></html>`) },
    };
    const test = await startTestServer('capture-busy', { captureQueueDelayMs: 600_000 }, { fakes: { net: site, capture: busy } });
    const mcp = await (async () => {
      const world = await test.fx.world({ users: [{ key: 'owner' }], sites: [] });
      const { token } = await test.fx.connection({ userId: world.users.owner!.userId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
      return { client: new McpConnection(test.url, token), workspaceId: world.workspaceId };
    })();
    try {
      const { envelope } = await mcp.client.callTool('migrate_site_from_url', { url: 'https://rosa.example/', maxPages: 3 });
      expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
      expect(envelope.data.fidelity).toBe('typed');
      expect(envelope.data.pagesAwaitingCapture).toBe(envelope.data.pagesFetched);
      expect(envelope.data.actionsRequired.join(' ')).toMatch(/capture browser was busy/);
      // One refused request, not one per page: the rest were queued without waiting again.
      // Each capture carries the migration's deadline too (rule migrate-crawl-time-bounded).
      expect(requests).toEqual([{ tenant: mcp.workspaceId, waitMs: expect.any(Number), until: expect.any(Number) }]);
      expect(requests[0]!.waitMs).toBeLessThanOrEqual(loadLimits().capture.waitSeconds * 1000);
      expect(requests[0]!.until! - Date.now()).toBeLessThanOrEqual(loadLimits().crawl.migrationSeconds * 1000);
    } finally {
      await mcp.client.close();
      await test.stop();
    }
  }, 30_000);
});
