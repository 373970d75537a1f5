// A small website the kit serves on loopback for migration scenarios (rules migrate-crawl-bounded,
// migrate-no-source-scripts, migrate-ssrf-hardened, migrate-result-relayed): pages with headings, text, links and
// an image, a robots.txt that disallows /private/, a script and a booking-widget embed that must never survive,
// and a redirect to the cloud metadata address. It records every path it was asked for, so a scenario can tell
// that /private/ was never requested. The home page has a known layout for visual capture (rules
// migrate-capture-then-typed, migrate-capture-queue-counted): a heading, a paragraph, a real image and a link whose words
// ("Read our story", on /about too) sit in no heading or paragraph, so only a conversion that keeps links keeps them; /about has
// two columns, a paragraph over several lines and its own fonts and colours; /many/ is a
// second site of exactly MANY_PAGES pages, all linked from /many/ and to nothing outside it. The target is told, through the fixtures protocol, that it may fetch this
// one loopback origin in test mode (POST /test-fixtures/v1/fetch-allowlist).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TEST_WEBSITE = {
  homeHeading: 'Fresh bread from the loopback bakery',
  aboutHeading: 'About the loopback bakery',
  privateText: 'PRIVATE PAGE THAT ROBOTS DISALLOW',
  scriptMarker: 'window.stolenCookies',
  embedHost: 'booking-widget.example',
  /**
   * The words of a link on each page the crawl reads (/ and /about) that no heading or paragraph holds: a page that
   * was captured keeps them, whichever page it was (rule migrate-capture-then-typed).
   */
  linkText: 'Read our story',
  /** The pages under /many/ (its index included): more than the 20-page capture allowance of §4.3. */
  manyPages: 25,
  manyHeading: (n: number) => `Loopback page ${n} of many`,
};

/** A 120×80 striped PNG, so a captured page shows a real image. */
const BREAD_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAHgAAABQCAIAAABd+SbeAAAAoElEQVR42u3ZQQ0AMAgEQeRUUzVVWJUgoq+6ICRMsgrmxxF5lgoKBKBBCzRo0BRAgxbottDvbhUEGjRogQYNGgFo0ALdF9pxbOsALdCgQVMADVqgQfsZuo9tHaAFGjRogQYt0KD9DGXrAC3QoEELNGiBBu1nKFsHaIEGDVqgQQs0aD9D2TpACzRo0AINWqBB+xnK1gFaoEGDFmjQAg16ZB821piMob2bxwAAAABJRU5ErkJggg==',
  'base64',
);

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><script>${TEST_WEBSITE.scriptMarker} = document.cookie;</script></head><body>${body}</body></html>`;

const PAGES: Record<string, { status: number; type: string; body: string | Buffer; location?: string }> = {
  '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
  '/': {
    status: 200,
    type: 'text/html',
    body: page(
      'Loopback Bakery',
      `<h1>${TEST_WEBSITE.homeHeading}</h1><p>We bake every morning with local flour.</p>` +
        `<iframe src="https://${TEST_WEBSITE.embedHost}/book"></iframe>` +
        '<a href="/about">About</a> <a href="/private/secret">Staff only</a> <a href="/to-metadata">Old shop</a>' +
        '<img src="/bread.png" alt="A loaf" width="120" height="80">' +
        `<div><a href="/about">${TEST_WEBSITE.linkText}</a></div>`,
    ),
  },
  // Two columns, a paragraph that wraps over several lines, its own fonts and colours: a layout to capture.
  '/about': {
    status: 200,
    type: 'text/html',
    body: page(
      'About',
      '<style>body{margin:0;font-family:sans-serif}h1{color:#7a3e00;margin:0;padding:24px 40px}.cols{display:flex;gap:40px;padding:0 40px}.cols>div{flex:1}h2{font-size:20px}</style>' +
        `<h1>${TEST_WEBSITE.aboutHeading}</h1><div class="cols"><div><p>Family run since 1990. Three generations have baked here, first in a cellar under the old mill, ` +
        'then in the shop on the square, always with flour from the farms around the town and a sourdough that is older than the shop itself.</p></div>' +
        '<div><h2>Opening hours</h2><ul><li>Monday to Friday, 7 to 18</li><li>Saturday, 8 to 14</li></ul><a href="/">Home</a>' +
        `<div><a href="/">${TEST_WEBSITE.linkText}</a></div></div></div>`,
    ),
  },
  '/private/secret': { status: 200, type: 'text/html', body: page('Private', `<h1>${TEST_WEBSITE.privateText}</h1>`) },
  '/to-metadata': { status: 302, type: 'text/plain', body: '', location: 'http://169.254.169.254/latest/meta-data/' },
  '/bread.png': { status: 200, type: 'image/png', body: BREAD_PNG },
};
const manyPath = (n: number) => (n === 1 ? '/many/' : `/many/p${n}`);
for (let n = 1; n <= TEST_WEBSITE.manyPages; n++) {
  const links = n === 1 ? Array.from({ length: TEST_WEBSITE.manyPages - 1 }, (_, i) => `<li><a href="${manyPath(i + 2)}">Page ${i + 2}</a></li>`).join('') : `<li><a href="/many/">All pages</a></li>`;
  PAGES[manyPath(n)] = { status: 200, type: 'text/html', body: page(`Many ${n}`, `<h1>${TEST_WEBSITE.manyHeading(n)}</h1><p>Text of page ${n}.</p><ul>${links}</ul>`) };
}

export interface TestWebsite {
  url: string;
  /** Paths requested so far, in order. */
  requested(): string[];
  stop(): Promise<void>;
}

export async function startTestWebsite(): Promise<TestWebsite> {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The kit's own question (asked from the Cucumber workers), never linked from a page and never logged.
    if (path === '/__kit/requested') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(requested));
      return;
    }
    requested.push(path);
    const found = PAGES[path];
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(found.status, { 'content-type': found.type, ...(found.location ? { location: found.location } : {}) });
    res.end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    // Named by host name, so the target's fetcher resolves a name (not only an IP literal) on the real path.
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    requested: () => [...requested],
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
