// `npm run bench -- caller-keyed-maps [--requests N]`: what N requests without an account leave in the server's
// memory (rule memory-caller-keyed-maps-bounded): N/2 GETs of /sites/<random id> and N/2 sign-ins, each with an
// e-mail nobody has, from one client address (all but the first few refused). Prints the rate limiter's keys, the
// store's remembered misses (spec/limits.json memory bounds both) and the heap growth after a collection. Without
// the bound, each request would leave one entry for the life of the process. Default N 40,000; server and client
// share this process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer } from '../reference/app.js';
import { benchArgs } from './lib/args.js';

const { values } = benchArgs(import.meta.url, { options: { requests: { type: 'string', default: '40000' } } });
const requests = Number(values.requests);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-maps-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [] });
try {
  const before = heap();
  const t0 = performance.now();
  // A few at a time: the point is the count of distinct keys, not the rate.
  const parallel = 16;
  for (let sent = 0; sent < requests; sent += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, requests - sent) }, (_, j) => {
        const i = sent + j;
        return i % 2 === 0
          ? fetch(`${server.url}/sites/site_${i.toString(36)}x${Math.random().toString(36).slice(2)}`).then((r) => r.arrayBuffer())
          : fetch(`${server.url}/app/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: `nobody-${i}@example.invalid`, password: 'wrong', next: '/app/' }).toString(), redirect: 'manual' }).then((r) => r.arrayBuffer());
      }),
    );
  }
  const grown = heap() - before;
  const parts = server.parts as unknown as { limiter: { size?: number }; store: { cachedMisses?: number } };
  console.log(`caller-keyed-maps: ${requests} requests in ${Math.round(performance.now() - t0)} ms`);
  console.log(`  rate limiter keys: ${parts.limiter.size ?? 'not counted by this version'}; remembered misses: ${parts.store.cachedMisses ?? 'not counted by this version'}`);
  console.log(`  heap growth after a collection: ${(grown / 1e6).toFixed(1)} MB (${Math.round(grown / requests)} bytes a request)`);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
