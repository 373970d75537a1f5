// The request body reader every JSON endpoint uses (reference/api/body.ts), read through events:
// bad input never crashes and never hangs (AGENTS.md). Each case runs against a plain node:http server on loopback,
// port 0, that reports what readJsonBody settled with.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from '../api/body.js';
import { DomainError } from '../domain/errors.js';

const CAP = 1024;
let server: Server;
let port: number;
/** What the reader settled with for the last request, by request path. */
const outcomes = new Map<string, Promise<unknown>>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const outcome = readJsonBody(req, CAP).then(
      (body) => ({ body }),
      (error: unknown) => ({ error: error instanceof DomainError ? error.code : (error as Error).message }),
    );
    outcomes.set(req.url!, outcome);
    void outcome.then((result) => {
      if (!res.destroyed) res.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends `chunks` one by one (chunked unless `length` is given); `abort` destroys the request after them. */
function send(path: string, chunks: string[], { length, abort = false }: { length?: number; abort?: boolean } = {}): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: length === undefined ? {} : { 'content-length': length } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve(text));
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined)); // the server destroyed the request
    req.setTimeout(5_000, () => req.destroy());
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (abort) req.destroy();
      else req.end();
    })();
  });
}

/**
 * What the reader settled with for `path`, within 5 s. The client's side of an aborted request ends at once, before
 * a busy server has even called its handler: wait for the handler too, never read an outcome not yet made.
 */
async function settled(path: string): Promise<unknown> {
  const until = Date.now() + 5_000;
  while (!outcomes.has(path)) {
    if (Date.now() > until) throw new Error(`${path}: the server never saw the request`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Promise.race([outcomes.get(path), new Promise((_, reject) => setTimeout(() => reject(new Error(`${path}: the reader never settled`)), 5_000))]);
}

describe('readJsonBody', () => {
  it('joins a body sent in several chunks', async () => {
    await send('/chunks', ['{"a":', '[1,2', ']}']);
    expect(await settled('/chunks')).toEqual({ body: { a: [1, 2] } });
  });

  it('refuses a declared length over the cap without reading the body', async () => {
    await send('/declared', ['{}'], { length: CAP + 1, abort: true });
    expect(await settled('/declared')).toEqual({ error: 'over_cap' });
  });

  it('refuses a chunked body once it passes the cap, and stops reading it', async () => {
    const answer = await send('/chunked-over', Array.from({ length: 8 }, () => 'x'.repeat(200)));
    expect(await settled('/chunked-over')).toEqual({ error: 'over_cap' });
    expect(answer).toBeUndefined(); // destroyed: the rest of the upload is never read
  });

  it('rejects, and does not hang, when the client goes away mid-body', async () => {
    await send('/aborted', ['{"a":'], { length: 100, abort: true });
    expect(await settled('/aborted')).toEqual({ error: 'aborted' });
  });

  it('answers validation_failed for a body that is not JSON', async () => {
    await send('/not-json', ['{"a":']);
    expect(await settled('/not-json')).toEqual({ error: 'validation_failed' });
  });
});
