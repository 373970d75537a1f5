// A small website the kit serves on loopback for migration scenarios (rules migrate-crawl-bounded,
// migrate-no-source-scripts, migrate-ssrf-hardened, migrate-result-relayed): pages with headings, text, links and
// an image, a robots.txt that disallows /private/, a script and a booking-widget embed that must never survive,
// and a link that redirects to one of the kit's SSRF canaries (canary.ts: a loopback listener a target must never
// reach; never a real non-public address, which a broken target would fetch off this machine). It records every path it was asked for, so a scenario can tell
// that /private/ was never requested. The home page has a known layout for visual capture (rules
// migrate-capture-then-typed, migrate-capture-queue-counted): a heading, a paragraph, a real image and a link whose words
// ("Read our story", on /about too) sit in no heading or paragraph, so only a conversion that keeps links keeps them; /about has
// two columns, a paragraph over several lines and its own fonts and colours; /many/ is a
// second site of exactly MANY_PAGES pages, all linked from /many/ and to nothing outside it; /drip/<anything> is a page
// that never finishes in time, a byte every DRIP_INTERVAL_MS (rule migrate-crawl-time-bounded). The target is told, through the fixtures protocol, that it may fetch this
// one loopback origin in test mode (POST /test-fixtures/v1/fetch-allowlist).
//
// The same website is also served over https (rules portable-site-assets-carried, import-site-assets-revalidated):
// a snapshot's asset URLs may have to be https for a target (§2.3 names no scheme), so the kit names its assets by
// the https origin. Its certificate is a test certificate for localhost, 127.0.0.1 and ::1, made once with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -addext
// subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1` and committed with its key (tls/): it protects nothing, a
// target trusts it only for this origin and only in test mode (fixtures part fetch-allowlist-tls). Under
// /asset/<token>.png each scenario gets an image of its own (kitAsset: a PNG whose text chunk holds the token, so
// bytes served elsewhere prove a copy of this one), until the kit asks the website to forget it
// (/__kit/forget/<token>), after which a server that hotlinked it has nothing to serve.
// Over https only, /oauth/client/<name>.json is an OAuth client's metadata document (rule
// oauth-client-id-metadata-documents): its client_id is its own https address, its redirect URI the kit's OAuth
// client's (conformance/lib/oauth-client.ts), so a target that takes metadata documents can approve that client.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

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
  /**
   * /drip/<anything> sends its headers at once, then one byte every dripIntervalMs for dripSeconds before it ends: a socket
   * never silent for long, an answer never whole within a target's crawl budget (rule migrate-crawl-time-bounded).
   */
  dripIntervalMs: 2_000,
  dripSeconds: 300,
};

/** A 120×80 striped PNG, so a captured page shows a real image. */
const BREAD_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAHgAAABQCAIAAABd+SbeAAAAoElEQVR42u3ZQQ0AMAgEQeRUUzVVWJUgoq+6ICRMsgrmxxF5lgoKBKBBCzRo0BRAgxbottDvbhUEGjRogQYNGgFo0ALdF9pxbOsALdCgQVMADVqgQfsZuo9tHaAFGjRogQYt0KD9DGXrAC3QoEELNGiBBu1nKFsHaIEGDVqgQQs0aD9D2TpACzRo0AINWqBB+xnK1gFaoEGDFmjQAg16ZB821piMob2bxwAAAABJRU5ErkJggg==',
  'base64',
);

/** The certificate the https origin serves (PEM): the one a target in test mode is told to trust for it. */
export const TEST_WEBSITE_CERTIFICATE = readFileSync(new URL('./tls/test-website.crt', import.meta.url), 'utf8');
export const TEST_WEBSITE_KEY = readFileSync(new URL('./tls/test-website.key', import.meta.url), 'utf8');

/** A scenario's own asset token: letters, digits and dashes, so it names a path and a text chunk as it is. */
const ASSET_TOKEN = /^[A-Za-z0-9-]{1,64}$/;
/** The kit's OAuth client's redirect URI (oauth-client.ts), never contacted: the consent fixture stops before it. */
export const KIT_OAUTH_REDIRECT_URI = 'http://127.0.0.1:9/site-mcp-conformance/callback';

/** The bytes of the kit's asset `token` (served at /asset/<token>.png): the striped PNG with a tEXt chunk naming it. */
export function kitAsset(token: string): Buffer {
  const data = Buffer.from(`Comment\0site-mcp kit asset ${token}`, 'latin1');
  const type = Buffer.from('tEXt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  // After the signature (8 bytes) and IHDR (25 bytes), where a text chunk may stand.
  return Buffer.concat([BREAD_PNG.subarray(0, 33), length, type, data, crc, BREAD_PNG.subarray(33)]);
}

/**
 * The kit's SVG asset `token` (served at /asset/<token>.svg): an image that draws a sign-in form posting elsewhere,
 * as a hostile SVG would (rule served-files-no-forms-no-framing: the target serves its copy so that it cannot post).
 */
export function kitSvgAsset(token: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><!-- site-mcp kit asset ${token} --><foreignObject width="320" height="120"><form xmlns="http://www.w3.org/1999/xhtml" action="https://form-target.invalid/${token}" method="post"><input name="password" type="password"/><button>Sign in</button></form></foreignObject></svg>`,
    'utf8',
  );
}

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
        '<a href="/about">About</a> <a href="/private/secret">Staff only</a> <a href="/to-canary">Old shop</a>' +
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
  '/bread.png': { status: 200, type: 'image/png', body: BREAD_PNG },
};
const manyPath = (n: number) => (n === 1 ? '/many/' : `/many/p${n}`);
for (let n = 1; n <= TEST_WEBSITE.manyPages; n++) {
  const links = n === 1 ? Array.from({ length: TEST_WEBSITE.manyPages - 1 }, (_, i) => `<li><a href="${manyPath(i + 2)}">Page ${i + 2}</a></li>`).join('') : `<li><a href="/many/">All pages</a></li>`;
  PAGES[manyPath(n)] = { status: 200, type: 'text/html', body: page(`Many ${n}`, `<h1>${TEST_WEBSITE.manyHeading(n)}</h1><p>Text of page ${n}.</p><ul>${links}</ul>`) };
}

export interface TestWebsite {
  url: string;
  /** The same website over https (`https://localhost:<port>`), with TEST_WEBSITE_CERTIFICATE. */
  httpsUrl: string;
  /** Paths requested so far, in order. */
  requested(): string[];
  stop(): Promise<void>;
}

/**
 * `redirectToCanary`: where /to-canary redirects (a canary URL of the run, rule migrate-ssrf-hardened: a redirect
 * hop is checked like the first URL); without it /to-canary answers 404.
 */
export async function startTestWebsite(options: { redirectToCanary?: string } = {}): Promise<TestWebsite> {
  const requested: string[] = [];
  // Asset tokens the kit asked the website to forget (bounded: a run has far fewer scenarios).
  const forgotten = new Set<string>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The kit's own questions (asked from the Cucumber workers), never linked from a page and never logged.
    if (path === '/__kit/requested') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(requested));
      return;
    }
    const forget = /^\/__kit\/forget\/([^/]+)$/.exec(path);
    if (forget && ASSET_TOKEN.test(forget[1]!) && forgotten.size < 10_000) {
      forgotten.add(forget[1]!);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    requested.push(path);
    const client = /^\/oauth\/client\/([^/]+)\.json$/.exec(path);
    if (client && ASSET_TOKEN.test(client[1]!) && (req.socket as { encrypted?: boolean }).encrypted && req.headers.host) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ client_id: `https://${req.headers.host}${path}`, client_name: `conformance ${client[1]}`, redirect_uris: [KIT_OAUTH_REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
      return;
    }
    // A document that has moved (rule oauth-client-documents-no-redirect): /oauth/moved/<name>.json redirects to a
    // document naming the moved address as its client_id, so only a server that follows the redirect takes it.
    const moved = /^\/oauth\/moved(-to)?\/([^/]+)\.json$/.exec(path);
    if (moved && ASSET_TOKEN.test(moved[2]!) && (req.socket as { encrypted?: boolean }).encrypted && req.headers.host) {
      if (!moved[1]) {
        res.writeHead(302, { location: `/oauth/moved-to/${moved[2]}.json`, 'cache-control': 'no-store' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ client_id: `https://${req.headers.host}/oauth/moved/${moved[2]}.json`, client_name: `conformance ${moved[2]}`, redirect_uris: [KIT_OAUTH_REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
      return;
    }
    const asset = /^\/asset\/([^/]+)\.(png|svg)$/.exec(path);
    if (asset && ASSET_TOKEN.test(asset[1]!) && !forgotten.has(asset[1]!)) {
      res.writeHead(200, { 'content-type': asset[2] === 'svg' ? 'image/svg+xml' : 'image/png' });
      res.end(asset[2] === 'svg' ? kitSvgAsset(asset[1]!) : kitAsset(asset[1]!));
      return;
    }
    if (path === '/to-canary' && options.redirectToCanary) {
      res.writeHead(302, { 'content-type': 'text/plain', location: options.redirectToCanary });
      res.end();
      return;
    }
    if (path.startsWith('/drip/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><head><title>Drip</title></head><body><p>');
      const until = Date.now() + TEST_WEBSITE.dripSeconds * 1000;
      const timer = setInterval(() => (Date.now() >= until ? (clearInterval(timer), res.end('</p></body></html>')) : res.write('.')), TEST_WEBSITE.dripIntervalMs);
      res.once('close', () => clearInterval(timer));
      return;
    }
    const found = PAGES[path];
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(found.status, { 'content-type': found.type, ...(found.location ? { location: found.location } : {}) });
    res.end(found.body);
  };
  const server: Server = createServer(handler);
  const tlsServer = createHttpsServer({ key: TEST_WEBSITE_KEY, cert: TEST_WEBSITE_CERTIFICATE }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  return {
    // Named by host name, so the target's fetcher resolves a name (not only an IP literal) on the real path.
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    httpsUrl: `https://localhost:${(tlsServer.address() as AddressInfo).port}`,
    requested: () => [...requested],
    stop: async () => {
      await Promise.all([close(server), close(tlsServer)]);
    },
  };
}
