// What one token can make the activity log hold, and what showing it costs (issue 33, finding 2: 100,010
// rate-limited calls wrote 100,010 entries, 20 calls naming a 4 MB tool added 84 MB, and the Developers settings read
// all 90 days to show 25 rows). Rules activity-refusals-folded, activity-name-bounded, activity-read-newest-first.
// Light on purpose: the heavy figures are `npm run bench -- activity-flood`.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../mcp/pipeline.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;

beforeAll(async () => {
  test = await startTestServer('activity-flood');
});

afterAll(async () => {
  await test?.stop();
});

const dayDir = (workspaceId: string) => join(test.dir, 'activity', workspaceId);

/** Bytes of every day file of the workspace's activity log. */
async function logBytes(workspaceId: string): Promise<number> {
  let files: string[];
  try {
    files = await readdir(dayDir(workspaceId));
  } catch {
    return 0;
  }
  let bytes = 0;
  for (const f of files) bytes += (await stat(join(dayDir(workspaceId), f))).size;
  return bytes;
}

async function logLines(workspaceId: string): Promise<string[]> {
  const files = (await readdir(dayDir(workspaceId))).sort();
  const text = (await Promise.all(files.map((f) => readFile(join(dayDir(workspaceId), f), 'utf8')))).join('');
  return text.split('\n').filter(Boolean);
}

describe('a flood of refused calls', () => {
  it('rule:activity-refusals-folded — 20,000 rate-limited calls of one connection grow the log by a few lines, and every one is counted', async () => {
    const { workspaceId, connectionId } = await ownerWithConnection(test, ['site:read']);
    const rt = test.server.rt;
    const principal = { workspaceId, connectionId };
    const { limit } = rt.limits.rateLimits.perConnection;
    for (let i = 0; i < limit; i++) expect((await callTool(rt, principal, 'list_sites', {})).ok).toBe(true);
    await rt.activity.flush();
    const before = await logBytes(workspaceId);

    const REFUSED = 20_000;
    let refused = 0;
    for (let done = 0; done < REFUSED; done += 500) {
      const answers = await Promise.all(Array.from({ length: 500 }, () => callTool(rt, principal, 'list_sites', {})));
      refused += answers.filter((a) => !a.ok && a.error.code === 'rate_limited').length;
    }
    expect(refused).toBe(REFUSED);

    // Reading the activity writes the count so far: every refused call is accounted for.
    const entries = await rt.activity.read(workspaceId, rt.clock.now(workspaceId), connectionId);
    const counted = entries.filter((e) => e.code === 'rate_limited').reduce((n, e) => n + (e.count ?? 1), 0);
    expect(counted).toBe(REFUSED);
    const grown = (await logBytes(workspaceId)) - before;
    // Before: one line per refused call, about 200 bytes each (4 MB here). Now: the first refusal and a counted line.
    expect(grown, `the log grew by ${grown} bytes for ${REFUSED} refused calls`).toBeLessThan(4 * 2048);
    // The calls the limits let through are still one line each.
    expect(entries.filter((e) => e.outcome === 'ok')).toHaveLength(limit);
  });

  it('rule:activity-name-bounded — five calls naming a 4 MB tool cost under 2 KB an entry, and the answer does not echo the name', async () => {
    const { workspaceId, connectionId } = await ownerWithConnection(test, ['site:read']);
    const rt = test.server.rt;
    const principal = { workspaceId, connectionId };
    const name = `no_such_tool_${'x'.repeat(4 * 1024 * 1024)}`;
    for (let i = 0; i < 5; i++) {
      const answer = await callTool(rt, principal, name, {});
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe('not_found');
      expect(JSON.stringify(answer).length).toBeLessThan(2048);
    }
    await rt.activity.flush();
    const lines = await logLines(workspaceId);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(2048);
    expect(await logBytes(workspaceId)).toBeLessThan(5 * 2048);
    const entries = await rt.activity.read(workspaceId, rt.clock.now(workspaceId), connectionId);
    expect(entries.every((e) => e.name.startsWith('no_such_tool_xxx') && e.code === 'not_found')).toBe(true);
  });
});

describe('the Developers settings with a large log', () => {
  it('rule:activity-read-newest-first — the page reads the newest entries only: no slower than a fresh log by a bounded ratio, small HTML', async () => {
    const world = await test.fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
    const websiteId = world.sites.main!.websiteId;
    const workspaceId = world.workspaceId;
    const { connectionId, token } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId, scopes: ['site:read'] });
    const rt = test.server.rt;
    const principal = { workspaceId, connectionId };
    for (let i = 0; i < 3; i++) await callTool(rt, principal, 'list_sites', {});
    expect(token).toBeTruthy();

    const signIn = await fetch(`${test.url}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: world.users.owner!.email, password: world.users.owner!.password, next: '/app/' }),
    });
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = async (path = `/app/sites/${websiteId}/developers`) => {
      const t0 = performance.now();
      const res = await fetch(`${test.url}${path}`, { headers: { cookie } });
      const html = await res.text();
      return { status: res.status, html, ms: performance.now() - t0 };
    };
    const median = async () => {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await page());
      expect(runs.every((r) => r.status === 200)).toBe(true);
      return { ms: runs.map((r) => r.ms).sort((a, b) => a - b)[1]!, html: runs[0]!.html };
    };
    const fresh = await median();

    // A log as a flood before the fix left it: 20 days of 5,000 entries (about 1 MB a day), and on the newest day
    // five entries naming a 2 MB tool. Written as day files, the log's own layout (activity/<workspace>/<day>.jsonl).
    const now = rt.clock.now(workspaceId).getTime();
    await mkdir(dayDir(workspaceId), { recursive: true });
    for (let d = 20; d >= 1; d--) {
      const day = new Date(now - d * 86_400_000);
      const lines: string[] = [];
      for (let i = 0; i < 5000; i++) {
        const at = new Date(day.getTime() - 3_600_000 + i * 100).toISOString();
        lines.push(JSON.stringify({ at, connectionId, workspaceId, websiteId: null, kind: 'tool', name: 'list_sites', outcome: 'refused', code: 'rate_limited' }));
      }
      await writeFile(join(dayDir(workspaceId), `${day.toISOString().slice(0, 10)}.jsonl`), `${lines.join('\n')}\n`, { flag: 'a' });
    }
    await rt.activity.flush();
    const today = join(dayDir(workspaceId), `${new Date(now).toISOString().slice(0, 10)}.jsonl`);
    const huge = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({ at: new Date(now - 1000 + i).toISOString(), connectionId, workspaceId, websiteId: null, kind: 'tool', name: `big_${'y'.repeat(2 * 1024 * 1024)}`, outcome: 'not_found', code: 'not_found' }),
    );
    await writeFile(today, `${huge.join('\n')}\n`, { flag: 'a' });
    // The calls of this server come after them, newest.
    for (let i = 0; i < 3; i++) await callTool(rt, principal, 'get_site_overview', {});

    const large = await median();
    // Before: the page read and parsed every day file (about 30 MB here) and rendered the 2 MB names (10 MB of HTML).
    expect(large.html.length, `the page is ${large.html.length} characters`).toBeLessThan(200_000);
    expect(large.html).toContain('get_site_overview');
    expect(large.ms, `fresh log ${fresh.ms.toFixed(0)} ms, large log ${large.ms.toFixed(0)} ms`).toBeLessThan(Math.max(5 * fresh.ms, fresh.ms + 150));

    // The older link continues where a page stopped (its entries, or its byte budget: the 2 MB lines of an older
    // server are skipped unread, 1 MiB a page): older entries, none shown twice, each page as cheap.
    const rows = (html: string) => [...html.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1]!);
    const shown = rows(large.html);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    let html = large.html;
    for (let pages = 0; shown.length < 100 && pages < 20; pages++) {
      const older = /<a href="([^"]+)">Older/.exec(html)?.[1];
      expect(older, `no older link after ${shown.length} rows`).toBeDefined();
      const next = await page(older!.replaceAll('&amp;', '&'));
      expect(next.ms).toBeLessThan(Math.max(5 * fresh.ms, fresh.ms + 150));
      expect(next.html.length).toBeLessThan(200_000);
      const more = rows(next.html);
      if (more.length) expect(more[0]! <= shown.at(-1)!, `${more[0]} after ${shown.at(-1)}`).toBe(true);
      shown.push(...more);
      html = next.html;
    }
    expect(shown.length).toBeGreaterThanOrEqual(100);
    expect([...shown].sort().reverse()).toEqual(shown);
    const written = shown.filter((at) => at < new Date(now - 86_400_000 / 2).toISOString()); // distinct times, one each
    expect(written.length).toBeGreaterThan(50);
    expect(new Set(written).size).toBe(written.length);
  });
});
