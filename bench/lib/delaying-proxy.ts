// A proxy on loopback that holds every request for a fixed time before it forwards it, standing in for a target in
// another region (a run against a remote target is bound by round trips). The Host header is rewritten
// to the target's, and each request leaves from the client's own loopback address, so the target's per-address
// throttles see the kit's addresses as they would without the proxy.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startDelayingProxy(delayMs: number): Promise<{ url: string; setTarget(target: string): void; stop(): Promise<void> }> {
  let upstream: URL | undefined;
  const server: Server = createServer((req, res) => {
    if (!upstream) return void res.writeHead(503).end();
    const to = upstream;
    const from = req.socket.remoteAddress?.replace(/^::ffff:/, '');
    const timer = setTimeout(() => {
      const forward = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers, ...(from && /^127\./.test(from) ? { localAddress: from } : {}) },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    }, delayMs);
    req.on('close', () => res.writableEnded || clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTarget: (target) => {
      upstream = new URL(target);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
