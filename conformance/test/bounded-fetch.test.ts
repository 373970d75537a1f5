// Every request the kit sends goes through boundedFetch (conformance/lib/bounded-fetch.ts): a target that never
// answers, answers without end, or drops a kept-alive connection while idle cannot hold a run or fail a call that
// did nothing wrong. Each target here is a raw TCP server on loopback, so what it does is exactly what is written.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedFetch, MAX_ANSWER_BYTES, withCallTimeout } from '../lib/bounded-fetch.js';
import { FixturesClient, FixturesError } from '../lib/fixtures-client.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function listen(onConnection: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  // close() waits for open connections: end them when the test is done.
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  }) as typeof server.close;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}';

describe('boundedFetch', () => {
  it('answers each request that meets a connection the target dropped after its first answer (a stale kept-alive socket)', async () => {
    let dropped = 0;
    // Answers the first request of each connection, then closes it without a word when the next one arrives.
    const url = await listen((socket) => {
      let answered = false;
      socket.on('data', () => {
        if (answered) {
          dropped++;
          return void socket.destroy();
        }
        answered = true;
        socket.write(OK);
      });
    });
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    // Until some request has met a dropped connection (Node reuses an idle one at once, so the second does).
    for (let i = 0; i < 20 && dropped < 3; i++) expect(await (await boundedFetch(url, post)).text()).toBe('{}');
    expect(dropped).toBe(3);
  });

  it('ends an exchange with a target that never answers within the call timeout, and one that never finishes its body too', async () => {
    const silent = await listen(() => undefined);
    let started = Date.now();
    await expect(withCallTimeout(500, () => boundedFetch(silent))).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const dripping = await listen((socket) => {
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n'));
    });
    started = Date.now();
    await expect(withCallTimeout(500, async () => (await boundedFetch(dripping)).text())).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops reading an answer past MAX_ANSWER_BYTES', async () => {
    const endless = await listen((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = `100000\r\n${'x'.repeat(0x100000)}\r\n`;
        const more = () => {
          while (!socket.destroyed && socket.write(chunk));
          if (!socket.destroyed) socket.once('drain', more);
        };
        more();
      });
    });
    await expect((await boundedFetch(endless)).arrayBuffer()).rejects.toMatchObject({ name: 'AnswerTooLarge' });
    expect(MAX_ANSWER_BYTES).toBe(10 * 1024 * 1024);
  });

  it('the fixtures client names a silent target in one sentence with the time it waited', async () => {
    const silent = await listen(() => undefined);
    const error = await withCallTimeout(300, () => new FixturesClient(silent, 'x').handshake()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixturesError);
    expect(error).toMatchObject({ status: 0, noAnswer: 'timeout' });
    expect((error as Error).message).toMatch(/did not answer within 0\.3 s/);
  });
});
