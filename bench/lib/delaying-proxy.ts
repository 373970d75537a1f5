// A proxy on loopback that holds every request for a fixed time before it forwards it, standing in for a target in
// another region (a run against a remote target is bound by round trips). The Host header is rewritten
// to the target's, and each request leaves from the client's own loopback address, so the target's per-address
// throttles see the kit's addresses as they would without the proxy.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startDelayingProxy(target: string, delayMs: number): Promise<{ url: string; stop(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const from = req.socket.remoteAddress?.replace(/^::ffff:/, '');
    const timer = setTimeout(() => {
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host }, ...(from && /^127\./.test(from) ? { localAddress: from } : {}) },
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
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
