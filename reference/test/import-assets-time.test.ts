// Rule import-assets-time-bounded: one import's asset fetches share its time. The source is a loopback server that
// sends a byte every 100 ms and never finishes in time, reached through the test-only allowOrigins option;
// everything else is the production path (real lookup, pinned transport, the fetcher's own deadline).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAssets } from '../domain/import-merge.js';
import { loadLimits } from '../../spec/index.js';

describe('rule:import-assets-time-bounded — the asset fetches of one import share its time', () => {
  let server: Server;
  let origin: string;
  const asked: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      let sent = 0;
      const timer = setInterval(() => (++sent > 100 ? (clearInterval(timer), res.end()) : res.write('.')), 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends the fetch under way when the time is up and skips the rest unfetched, naming why', async () => {
    const assets = Array.from({ length: 5 }, (_, i) => ({ key: `a${i}`, url: `${origin}/slow-${i}.png` }));
    const started = Date.now();
    const { kept, skipped } = await fetchAssets(assets, { allowOrigins: [origin] }, undefined, { until: started + 700 });
    const took = Date.now() - started;
    expect(kept).toEqual([]);
    // The first fetch had the import's 700 ms (under the 5 s of one fetch) and ended with them; no other was asked.
    expect(skipped[0]).toEqual({ url: assets[0]!.url, reason: expect.stringMatching(/^no whole answer within \d+ ms$/) });
    expect(skipped.slice(1)).toEqual(assets.slice(1).map((a) => ({ url: a.url, reason: "the import's time for fetching assets ran out" })));
    expect(asked).toEqual(['/slow-0.png']);
    expect(took).toBeLessThan(1_500);
  });

  it('gives one import the time spec/limits.json names, shorter than its assets one after another', () => {
    const { maxAssets, fetchSeconds, totalSeconds } = loadLimits().importAssets;
    expect(totalSeconds).toBeLessThan(maxAssets * fetchSeconds);
  });
});
