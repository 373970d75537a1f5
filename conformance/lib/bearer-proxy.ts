// A header-adding loopback proxy: the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in package.json) connects to a server URL and has no option to send
// an Authorization header, while §4.1 puts every MCP request behind `Authorization: Bearer <token>`. This proxy
// listens on 127.0.0.1 (port 0 unless told), forwards every request to the target unchanged except that it sets
// the bearer, and streams both bodies through, so Streamable HTTP answers (JSON or SSE) arrive as the target sent
// them. It never logs or returns the token. Its own loopback address in Host and Origin is mapped to the target's
// (as a reverse proxy does), so a target's DNS-rebinding protection sees the address it serves; any other Host or
// Origin (a rebinding probe's) reaches the target unchanged, for the target to refuse.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  /** The proxy's own base address, e.g. http://127.0.0.1:41234 (append the target's path, e.g. /api/mcp). */
  url: string;
  /** Closes the listener and every open connection. Safe to call twice. */
  stop(): Promise<void>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own, never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Starts the proxy in front of `target` (its base address; request paths are appended to it) adding
 * `Authorization: Bearer <token>` to every request. A target that cannot be reached answers 502 with one line.
 */
export async function startBearerProxy(target: string, token: string, options: { port?: number } = {}): Promise<BearerProxy> {
  const base = new URL(target);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`the target must be an http(s) address, not ${target}`);
  if (!token || /[\r\n]/.test(token)) throw new Error('the bearer token must be one non-empty line');
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/$/, '');
  const loopbackTarget = LOOPBACK.has(base.hostname);
  let ownPort = '';
  /** `host` (host[:port]) naming this proxy on a loopback name becomes the target's; anything else is kept. */
  const mapHost = (host: string): string => {
    const match = /^(localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(host);
    if (!match || match[2] !== ownPort) return host;
    return loopbackTarget ? `${match[1]}${base.port ? `:${base.port}` : ''}` : base.host;
  };
  const server: Server = createServer((req, res) => {
    const headers = forwardable(req.headers);
    headers.host = req.headers.host ? mapHost(req.headers.host) : base.host;
    const origin = req.headers.origin;
    if (origin) {
      const match = /^(https?):\/\/([^/]+)$/.exec(origin);
      if (match) {
        const mapped = mapHost(match[2]!);
        headers.origin = mapped === match[2] ? origin : `${base.protocol}//${mapped}`;
      }
    }
    headers.authorization = `Bearer ${token}`;
    const upstream = send(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, method: req.method, path: `${prefix}${req.url ?? '/'}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res);
        // A client that goes away (an SSE stream it stops reading) ends the upstream request too.
        res.once('close', () => answer.destroy());
      },
    );
    upstream.once('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`bearer proxy: the target ${base.origin} did not answer (${error.message})\n`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  ownPort = String(port);
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
