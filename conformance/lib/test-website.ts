// A small website the kit serves on loopback for migration scenarios (rules migrate-crawl-bounded,
// migrate-no-source-scripts, migrate-ssrf-hardened, migrate-result-relayed): pages with headings, text, links and
// an image, a robots.txt that disallows /private/, a script and a booking-widget embed that must never survive,
// and a redirect to the cloud metadata address. It records every path it was asked for, so a scenario can tell
// that /private/ was never requested. The target is told, through the fixtures protocol, that it may fetch this
// one loopback origin in test mode (POST /test-fixtures/v1/fetch-allowlist).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TEST_WEBSITE = {
  homeHeading: 'Fresh bread from the loopback bakery',
  aboutHeading: 'About the loopback bakery',
  privateText: 'PRIVATE PAGE THAT ROBOTS DISALLOW',
  scriptMarker: 'window.stolenCookies',
  embedHost: 'booking-widget.example',
};

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><script>${TEST_WEBSITE.scriptMarker} = document.cookie;</script></head><body>${body}</body></html>`;

const PAGES: Record<string, { status: number; type: string; body: string; location?: string }> = {
  '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
  '/': {
    status: 200,
    type: 'text/html',
    body: page(
      'Loopback Bakery',
      `<h1>${TEST_WEBSITE.homeHeading}</h1><p>We bake every morning with local flour.</p>` +
        `<iframe src="https://${TEST_WEBSITE.embedHost}/book"></iframe>` +
        '<a href="/about">About</a> <a href="/private/secret">Staff only</a> <a href="/to-metadata">Old shop</a>' +
        '<img src="/bread.png" alt="A loaf">',
    ),
  },
  '/about': { status: 200, type: 'text/html', body: page('About', `<h1>${TEST_WEBSITE.aboutHeading}</h1><p>Family run since 1990.</p><a href="/">Home</a>`) },
  '/private/secret': { status: 200, type: 'text/html', body: page('Private', `<h1>${TEST_WEBSITE.privateText}</h1>`) },
  '/to-metadata': { status: 302, type: 'text/plain', body: '', location: 'http://169.254.169.254/latest/meta-data/' },
  '/bread.png': { status: 200, type: 'image/png', body: '\x89PNG\r\n\x1a\n' },
};

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
