// DNS-rebinding protection: a request naming another Host, or sent from another Origin, is refused before
// any route runs.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../conformance/lib/target.js';
import { referenceServer } from '../../conformance/properties/shared-reference.js';

let target: Target;
beforeAll(async () => {
  target = await referenceServer();
});
afterAll(async () => {
  await target?.stop();
});

function get(path: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(path, target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('host check', () => {
  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect(await get('/api/mcp', { host: 'evil.example' })).toBe(403);
  });
  it('refuses a foreign Origin', async () => {
    expect(await get('/api/mcp', { origin: 'https://evil.example' })).toBe(403);
  });
  it('lets its own host through to authentication', async () => {
    expect(await get('/api/mcp', {})).toBe(401);
  });
});
