// Caller-chosen strings that the store keeps a lookup for (an email, a website id, a delivery-token hash) name a file
// of bounded length whatever their length (rule store-lookup-names-bounded). Otherwise an email or site
// id over about 186 bytes makes a file name past the file system's 255, so the sign-in and the public site answer
// 500 (ENAMETOOLONG), and such a sign-in is not counted as a failed attempt.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { limits } from '../catalogue.js';
import { postFrom, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('long-keys');
});
afterAll(async () => {
  await test?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What the server writes to its error log while `run` runs. */
async function errorLogOf(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')));
  await run();
  return lines.join('\n');
}

describe('over-long lookup keys', () => {
  it('rule:store-lookup-names-bounded — a sign-in with a 300-character email is a failed attempt (401, then 429), with nothing logged', async () => {
    const email = `${'a'.repeat(288)}@example.test`;
    const from = '127.0.2.14';
    const sign = () => postFrom(test.url, '/app/sign-in', from, 'application/x-www-form-urlencoded', new URLSearchParams({ email, password: 'wrong', next: '/app/' }).toString());
    const log = await errorLogOf(async () => {
      for (let i = 0; i < limits.signIn.perAccount.limit; i++) expect((await sign()).status).toBe(401);
      expect((await sign()).status).toBe(429);
    });
    expect(log).toBe('');
  }, 60_000);

  it('rule:store-lookup-names-bounded — the public site of a 1,000-character website id answers 404, with nothing logged', async () => {
    const log = await errorLogOf(async () => {
      for (const path of [`/sites/site_${'x'.repeat(1000)}/`, `/sites/${'é'.repeat(200)}/`]) {
        const res = await fetch(`${test.url}${path}`);
        expect(res.status, path.slice(0, 40)).toBe(404);
        expect(await res.text()).not.toMatch(/ENAMETOOLONG|\n\s+at /);
      }
    });
    expect(log).toBe('');
  });

  it('rule:store-lookup-names-bounded — a lookup of any length is stored and found again; a short key keeps its readable name', async () => {
    const store = test.server.parts.store;
    const long = `${'k'.repeat(5000)}@example.test`;
    await store.setDirectory('email', long, 'ws_long');
    await store.setDirectory('email', 'short@example.test', 'ws_short');
    expect(await store.lookupDirectory('email', long)).toBe('ws_long');
    // On disk: every lookup's file name fits the file system's 255 bytes; a short key keeps its reversible name.
    const names = await readdir(join(test.dir, 'directory'));
    expect(names.every((n) => Buffer.byteLength(n) <= 255)).toBe(true);
    expect(names).toContain(`email-${Buffer.from('short@example.test').toString('base64url')}`);
    expect(names.filter((n) => n.startsWith('email.'))).toHaveLength(1);
  });
});
