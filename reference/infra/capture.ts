// Visual capture for migrate_site_from_url (§4.3, rule migrate-capture-then-typed): a page is loaded in headless
// Chromium (playwright-core) and its laid-out DOM read back as positioned boxes of text, links and images.
//
// Nothing of the source runs or reaches the network on its own (rules migrate-no-source-scripts,
// migrate-ssrf-hardened):
// - the page's JavaScript is disabled (javaScriptEnabled: false), so no script, booking widget or embed runs;
//   frames other than the page itself (iframes, embeds) are never loaded, and scripts are not even fetched;
// - every request the page makes is intercepted (context.route) and answered only through safeFetch with the
//   server's network service, the same SSRF-hardened fetch the crawler uses (public addresses only, each redirect
//   re-checked, capped, time-bounded; the test-mode allow-list is the network's, never a capture option);
// - as a second fence, Chromium resolves no host name itself (--host-resolver-rules) and sends anything that
//   escaped the interception to a closed proxy port, so a request outside route() fails instead of connecting.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Route } from 'playwright-core';
import { safeFetch, timeWithin, UnsafeUrlError, type FetchResult } from './safe-fetch.js';
import { FairQueue, QueueWaitError } from './fair-queue.js';
import { loadLimits } from '../../spec/index.js';
import type { Network } from './safe-fetch.js';
import type { Captured } from '../../generated/schemas/section-content.js';

/** A box as the page drew it: the stored box's fields (spec/schemas/section-content.schema.json, `captured`), with
 * an image named by its absolute URL until the import's asset pipeline gives it an asset id. */
export type CapturedBox = Omit<Captured['boxes'][number], 'imageAssetId'> & {
  /** Absolute URL of an image. */
  src?: string;
};

/** One vertical band of the page (a top-level region) and the boxes whose top lies in it, in page coordinates. */
export interface CapturedRegion {
  top: number;
  height: number;
  boxes: CapturedBox[];
}

export interface PageCapture {
  /** The address the page was loaded from. */
  url: string;
  /** Width of the laid-out page in CSS pixels. */
  width: number;
  regions: CapturedRegion[];
}

/** Whose capture it is, and how long its caller may wait for it to start (rule capture-fair-between-workspaces). */
export interface CaptureRequest {
  /** The workspace the page is captured for: captures are served to workspaces in turn. */
  tenant?: string;
  /** A capture not started by then is refused with CaptureBusyError (the caller queues the page for later). */
  waitMs?: number;
  /**
   * When the capture must have ended (epoch ms; its caller's deadline, rule migrate-crawl-time-bounded): each of
   * its steps, the document's fetch, the load and the layout, takes at most what is left, and fails past it.
   */
  until?: number;
}

export interface CaptureEngine {
  /** Loads `url` (only through `net`) and reads its layout; throws when the page cannot be captured. */
  capture(url: string, net: Network, request?: CaptureRequest): Promise<PageCapture>;
  /** Whether a browser can be started; false when none is installed (the server then stays on the typed path). */
  available(): Promise<boolean>;
  close(): Promise<void>;
}

export class CaptureUnavailableError extends Error {}
/** The browser was busy with other captures for longer than the caller would wait; nothing was fetched. */
export class CaptureBusyError extends Error {}

export const CAPTURE_LIMITS = {
  viewport: { width: 1280, height: 800 },
  /** One page's load, including its subresources. */
  pageTimeoutMs: 10_000,
  /** Requests one page may make besides itself; the rest are refused. */
  maxRequests: 100,
  /** Bytes one subresource may have (the crawler's page cap for the document); a page's total is limits' capture.pageBytes. */
  maxResourceBytes: 5 * 1024 * 1024,
  maxBoxes: 300,
  /** Elements the layout script looks at, and how long it may take. */
  maxElements: 10_000,
  layoutTimeoutMs: 10_000,
  maxRegions: 30,
  maxWidth: 4000,
  maxHeight: 20_000,
};

// Resource types a capture needs: the page, its styles, images and fonts. Scripts would never run (JavaScript is
// off) and frames are never loaded (rule migrate-no-source-scripts); media, sockets and the rest are not needed.
const FETCHED_TYPES = new Set(['document', 'stylesheet', 'image', 'font']);

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=NetworkPrediction,DnsOverHttps',
  // Second fence (rule migrate-ssrf-hardened): no name resolves and nothing connects outside route().
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
];

// The script that reads the layout inside the page: plain JavaScript read as text, so no compiler helper (tsx's
// __name) ends up in the page; CDP evaluates it even with the page's own scripts off.
const READ_LAYOUT = readFileSync(fileURLToPath(new URL('./capture-layout.browser.js', import.meta.url)), 'utf8');

/** One fetch of a capture: the page or one of its resources, through safeFetch with the migration's network. */
const fetchForCapture = (url: string, net: Network, maxBytes = CAPTURE_LIMITS.maxResourceBytes, timeoutMs = 5000) => safeFetch(url, { maxBytes, timeoutMs, maxRedirects: 3, ...net });

/**
 * The page being captured: its request budget, its byte budget (what its fetches may still read, rule
 * capture-bytes-bounded), its own address, and its document as fetched before the browser saw it.
 */
interface CurrentPage {
  requests: number;
  bytesLeft: number;
  mainUrl: string;
  document: FetchResult | undefined;
}

/** Answers one intercepted request through safeFetch, or refuses it (rules migrate-ssrf-hardened, migrate-no-source-scripts). */
async function serveThroughSafeFetch(route: Route, net: Network, page: CurrentPage): Promise<void> {
  const request = route.request();
  const url = request.url();
  const type = request.resourceType();
  const isPage = type === 'document' && request.frame().parentFrame() === null && request.isNavigationRequest();
  if (!FETCHED_TYPES.has(type) || (type === 'document' && !isPage) || (isPage && url !== page.mainUrl) || request.method() !== 'GET' || !/^https?:/.test(url)) {
    await route.abort('blockedbyclient');
    return;
  }
  if (!isPage && --page.requests < 0) {
    await route.abort('blockedbyclient');
    return;
  }
  // Each resource reserves what it may read from the page's byte budget before its fetch and gives back what it
  // did not use, so the bytes a page's fetches hold at once, and buffer and encode for the browser, never exceed
  // the budget however many large resources it names (rule capture-bytes-bounded). A resource
  // refused for the budget is left out of the capture like any failed one.
  let reserved = 0;
  if (!isPage) {
    reserved = Math.min(CAPTURE_LIMITS.maxResourceBytes, page.bytesLeft);
    if (reserved <= 0) {
      await route.abort('blockedbyclient');
      return;
    }
    page.bytesLeft -= reserved;
  }
  try {
    // The page itself was fetched before the browser was asked for it (captureOne): served from that answer.
    const res = isPage && page.document ? page.document : await fetchForCapture(url, net, reserved);
    page.bytesLeft += reserved - (isPage ? 0 : res.body.length);
    reserved = 0;
    // Only what a capture reads: never a cookie or anything the source would set.
    await route.fulfill({ status: res.status, contentType: res.contentType || 'application/octet-stream', body: res.body });
  } catch (error) {
    page.bytesLeft += reserved;
    await route.abort(error instanceof UnsafeUrlError ? 'addressunreachable' : 'failed');
  }
}

/**
 * The capture engine on Debian's Chromium (or any Chromium at `executablePath`). The browser starts on the first
 * capture, serves one page at a time and closes after `idleMs` without work; when it cannot start, available()
 * answers false for `retryMs` before trying again, and capture() throws CaptureUnavailableError.
 */
export function chromiumCapture(options: { executablePath: string; idleMs?: number; retryMs?: number; pageBytes?: number }): CaptureEngine {
  const idleMs = options.idleMs ?? 30_000;
  const retryMs = options.retryMs ?? 60_000;
  /** What one page's fetches may read in all, its document included (spec/limits.json capture.pageBytes). */
  const pageBytes = options.pageBytes ?? loadLimits().capture.pageBytes;
  let browser: Promise<Browser> | undefined;
  let failedAt = -Infinity;
  let idle: NodeJS.Timeout | undefined;
  // One page at a time, workspaces in turn (rule capture-fair-between-workspaces).
  const queue = new FairQueue();
  let closed = false;
  let tab: { browser: Browser; page: Page } | undefined;
  /** What the page being captured may fetch: the network of its migration, its request budget and its own address. */
  const current: CurrentPage & { net: Network | undefined } = { net: undefined, requests: 0, bytesLeft: 0, mainUrl: '', document: undefined };

  const launch = (): Promise<Browser> => {
    if (!browser) {
      // Loaded on the first capture, not at start-up: a server that never migrates a site never pays for
      // playwright-core's module, a large share of the reference's start-up CPU.
      const started = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: options.executablePath, args: CHROMIUM_ARGS, timeout: 20_000 }));
      browser = started;
      started.then(
        // A browser that crashed or was killed is started afresh on the next capture instead of failing every page.
        (b) =>
          b.on('disconnected', () => {
            if (browser === started) browser = undefined;
            if (tab?.browser === b) tab = undefined;
          }),
        () => {
          failedAt = Date.now();
          if (browser === started) browser = undefined;
        },
      );
    }
    return browser;
  };
  const shutDown = async () => {
    const open = browser;
    browser = undefined;
    tab = undefined;
    await open?.then((b) => b.close()).catch(() => undefined);
  };
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => void shutDown(), idleMs);
    idle.unref();
  };

  const captureOne = async (url: string, net: Network, until?: number): Promise<PageCapture> => {
    if (closed) throw new CaptureUnavailableError('the capture engine is closed');
    if (Date.now() - failedAt < retryMs) throw new CaptureUnavailableError('no browser could be started');
    // The page is fetched first, without the browser: a source that is down, refused or answers anything but 200
    // fails here for the cost of one fetch. Handed to Chromium, each such page would cost a browser tab torn down
    // and made again, for every attempt at every queued page of a stopped website.
    const mainUrl = new URL(url).href;
    const document = await fetchForCapture(mainUrl, net, Math.min(CAPTURE_LIMITS.maxResourceBytes, pageBytes), timeWithin(5000, until));
    if (document.status !== 200) throw new Error(`HTTP ${document.status}`);
    let b: Browser;
    try {
      b = await launch();
    } catch (error) {
      throw new CaptureUnavailableError(`no browser could be started (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`);
    }
    clearTimeout(idle);
    // One context and one page serve every capture of this browser (captures run one at a time): making them
    // per page costs more than the capture itself. Nothing carries over between pages: scripts never run and the
    // answers carry no cookie (serveThroughSafeFetch passes the body and its type only).
    try {
      if (!tab || tab.browser !== b || tab.page.isClosed()) {
        const context = await b.newContext({ javaScriptEnabled: false, viewport: CAPTURE_LIMITS.viewport, serviceWorkers: 'block', acceptDownloads: false });
        const state = current;
        await context.route('**/*', (route) => (state.net ? serveThroughSafeFetch(route, state.net, state) : route.abort('blockedbyclient')));
        tab = { browser: b, page: await context.newPage() };
      }
      current.net = net;
      current.requests = CAPTURE_LIMITS.maxRequests;
      current.bytesLeft = pageBytes - document.body.length;
      current.mainUrl = mainUrl;
      current.document = document;
      const page = tab.page;
      const response = await page.goto(current.mainUrl, { waitUntil: 'load', timeout: timeWithin(CAPTURE_LIMITS.pageTimeoutMs, until) });
      if (!response || response.status() !== 200) throw new Error(`HTTP ${response?.status() ?? 'no answer'}`);
      const { maxBoxes, maxRegions, maxWidth, maxHeight, maxElements } = CAPTURE_LIMITS;
      // cast: READ_LAYOUT (capture-layout.browser.js) answers this shape, bounded by these limits; capturedSections clamps every number again.
      const layout = page.evaluate(`(${READ_LAYOUT.trim().replace(/;$/, '')})(${JSON.stringify({ maxBoxes, maxRegions, maxWidth, maxHeight, maxElements })})`) as Promise<Pick<PageCapture, 'width' | 'regions'>>;
      layout.catch(() => undefined); // a late answer after a time-out is dropped, never left unhandled
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the page took too long to lay out')), timeWithin(CAPTURE_LIMITS.layoutTimeoutMs, until))));
      // On time-out the catch below closes the tab, which ends the evaluation too.
      const { width, regions } = await Promise.race([layout, late]).finally(() => clearTimeout(timer));
      return { url: current.mainUrl, width, regions };
    } catch (error) {
      // A page that failed may leave the tab mid-load: the next capture starts from a fresh one.
      await tab?.page.context().close().catch(() => undefined);
      tab = undefined;
      throw error;
    } finally {
      current.net = undefined;
      current.document = undefined;
      armIdle();
    }
  };

  return {
    capture(url, net, request = {}) {
      // One page at a time (Chromium is the heaviest thing this server runs), taken from the workspaces in turn;
      // a caller that will not wait longer than waitMs gets CaptureBusyError, nothing fetched.
      return queue.run(request.tenant ?? '', () => captureOne(url, net, request.until), request.waitMs === undefined ? {} : { waitMs: request.waitMs }).catch((error: unknown) => {
        throw error instanceof QueueWaitError ? new CaptureBusyError(`the capture browser was busy for ${request.waitMs} ms`) : error;
      });
    },
    async available() {
      if (closed || Date.now() - failedAt < retryMs) return false;
      try {
        await launch();
        armIdle();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      closed = true;
      clearTimeout(idle);
      await queue.idle();
      await shutDown();
    },
  };
}
