// What one token can make the activity log hold, and what showing it costs: neither may grow with a flood
// of rate-limited calls, an over-long tool name or the log's 90 days. Rules activity-refusals-folded,
// activity-name-bounded, activity-read-newest-first. Light on purpose: the heavy figures are
// `npm run bench -- activity-flood`.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../mcp/pipeline.js';
import { ActivityLog, type ActivityEntry } from '../infra/store/activity.js';
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
    const parts = test.server.parts;
    const principal = { workspaceId, connectionId };
    const { limit } = parts.limits.rateLimits.perConnection;
    for (let i = 0; i < limit; i++) expect((await callTool(parts, principal, 'list_sites', {})).ok).toBe(true);
    await parts.activity.flush();
    const before = await logBytes(workspaceId);

    const REFUSED = 20_000;
    let refused = 0;
    for (let done = 0; done < REFUSED; done += 500) {
      const answers = await Promise.all(Array.from({ length: 500 }, () => callTool(parts, principal, 'list_sites', {})));
      refused += answers.filter((a) => !a.ok && a.error.code === 'rate_limited').length;
    }
    expect(refused).toBe(REFUSED);

    // Reading the activity writes the count so far: every refused call is accounted for.
    const entries = await parts.activity.read(workspaceId, parts.clock.now(workspaceId), connectionId);
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
    const parts = test.server.parts;
    const principal = { workspaceId, connectionId };
    const name = `no_such_tool_${'x'.repeat(4 * 1024 * 1024)}`;
    for (let i = 0; i < 5; i++) {
      const answer = await callTool(parts, principal, name, {});
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe('not_found');
      expect(JSON.stringify(answer).length).toBeLessThan(2048);
    }
    await parts.activity.flush();
    const lines = await logLines(workspaceId);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(2048);
    expect(await logBytes(workspaceId)).toBeLessThan(5 * 2048);
    const entries = await parts.activity.read(workspaceId, parts.clock.now(workspaceId), connectionId);
    expect(entries.every((e) => e.name.startsWith('no_such_tool_xxx') && e.code === 'not_found')).toBe(true);
  });
});

describe('the Developers settings with a large log', () => {
  it('rule:activity-read-newest-first — the page reads the newest entries only: no slower than a fresh log by a bounded ratio, small HTML', async () => {
    const world = await test.fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
    const websiteId = world.sites.main!.websiteId;
    const workspaceId = world.workspaceId;
    const { connectionId, token } = await test.fx.connection({ userId: world.users.owner!.userId, websiteId, scopes: ['site:read'] });
    const parts = test.server.parts;
    const principal = { workspaceId, connectionId };
    for (let i = 0; i < 3; i++) await callTool(parts, principal, 'list_sites', {});
    expect(token).toBeTruthy();

    const signInCookie = async (w: typeof world) => {
      const signIn = await fetch(`${test.url}/app/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: w.users.owner!.email, password: w.users.owner!.password, next: '/app/' }),
      });
      expect(signIn.status).toBe(302);
      return signIn.headers.get('set-cookie')!.split(';')[0]!;
    };
    const cookie = await signInCookie(world);
    const page = async (path = `/app/sites/${websiteId}/developers`, as = cookie) => {
      const t0 = performance.now();
      const res = await fetch(`${test.url}${path}`, { headers: { cookie: as } });
      const html = await res.text();
      return { status: res.status, html, ms: performance.now() - t0 };
    };
    // The control: a workspace of its own with a fresh log, its page read in turn with the large one's, so that a
    // busy machine slows both alike (timing rules compare interleaved samples).
    const other = await test.fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
    const otherConnection = await test.fx.connection({ userId: other.users.owner!.userId, websiteId: other.sites.main!.websiteId, scopes: ['site:read'] });
    for (let i = 0; i < 3; i++) await callTool(parts, { workspaceId: other.workspaceId, connectionId: otherConnection.connectionId }, 'list_sites', {});
    const otherCookie = await signInCookie(other);
    const freshPage = () => page(`/app/sites/${other.sites.main!.websiteId}/developers`, otherCookie);

    // A log as a flood before the fix left it: 20 days of 5,000 entries (about 1 MB a day), and on the newest day
    // five entries naming a 2 MB tool. Written as day files, the log's own layout (activity/<workspace>/<day>.jsonl).
    const now = parts.clock.now(workspaceId).getTime();
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
    await parts.activity.flush();
    const today = join(dayDir(workspaceId), `${new Date(now).toISOString().slice(0, 10)}.jsonl`);
    const huge = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({ at: new Date(now - 1000 + i).toISOString(), connectionId, workspaceId, websiteId: null, kind: 'tool', name: `big_${'y'.repeat(2 * 1024 * 1024)}`, outcome: 'not_found', code: 'not_found' }),
    );
    await writeFile(today, `${huge.join('\n')}\n`, { flag: 'a' });
    // The calls of this server come after them, newest.
    for (let i = 0; i < 3; i++) await callTool(parts, principal, 'get_site_overview', {});

    // Five of each, in turn; the medians compared.
    const freshRuns: Awaited<ReturnType<typeof page>>[] = [];
    const largeRuns: Awaited<ReturnType<typeof page>>[] = [];
    for (let i = 0; i < 5; i++) {
      freshRuns.push(await freshPage());
      largeRuns.push(await page());
    }
    expect([...freshRuns, ...largeRuns].every((r) => r.status === 200)).toBe(true);
    const medianMs = (runs: { ms: number }[]) => runs.map((r) => r.ms).sort((a, b) => a - b)[2]!;
    const fresh = { ms: medianMs(freshRuns) };
    const large = { ms: medianMs(largeRuns), html: largeRuns[0]!.html };
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
      // Other work on the machine only ever adds time: a read over the bound is read twice more, the fastest kept.
      const bound = Math.max(5 * fresh.ms, fresh.ms + 150);
      let next = await page(older!.replaceAll('&amp;', '&'));
      for (let again = 0; again < 2 && next.ms >= bound; again++) {
        const retry = await page(older!.replaceAll('&amp;', '&'));
        if (retry.ms < next.ms) next = retry;
      }
      expect(next.ms, `fresh log ${fresh.ms.toFixed(0)} ms, an older page ${next.ms.toFixed(0)} ms`).toBeLessThan(bound);
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

describe('the log read a page at a time, and refusals counted', () => {
  const entry = (i: number, at: string, connectionId = 'conn_a'): ActivityEntry => ({
    at,
    connectionId,
    workspaceId: 'ws_pages',
    websiteId: null,
    kind: 'tool',
    // Names of varied length with characters of several bytes, so lines and chunks never line up.
    name: `tool_${i}_${'é€'.repeat(i % 37)}`,
    outcome: 'ok',
  });

  it('rule:activity-read-newest-first — pages walk every entry newest first across days and chunks, each reading a bounded number of bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-mcp-activity-pages-'));
    const log = new ActivityLog(dir, 90);
    try {
      const now = new Date('2026-11-26T12:00:00.000Z');
      const all: ActivityEntry[] = [];
      for (let i = 0; i < 3000; i++) all.push(entry(i, new Date(now.getTime() - (3000 - i) * 60_000).toISOString(), i % 3 ? 'conn_a' : 'conn_b'));
      await Promise.all(all.map((e) => log.append(e)));
      const bounds = { pageEntries: 7, pageScanBytes: 10_000, maxLineBytes: 65_536 };
      const seen: ActivityEntry[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 2000; pages++) {
        const page = await log.readPage('ws_pages', now, bounds, { connectionIds: new Set(['conn_a']), before });
        expect(page.entries.length).toBeLessThanOrEqual(7);
        expect(page.scannedBytes).toBeLessThanOrEqual(bounds.pageScanBytes + 65_536);
        seen.push(...page.entries);
        before = page.older;
        if (!before) break;
      }
      expect(before).toBeNull();
      expect(seen).toEqual(all.filter((e) => e.connectionId === 'conn_a').reverse());
      // "Last used" after a restart (nothing in memory): from the same bounded read; unknown past its budget, and
      // "never" only once the whole log was read.
      const restarted = new ActivityLog(dir, 90);
      try {
        const ids = ['conn_a', 'conn_b', 'conn_never'];
        const last = await restarted.lastUsed('ws_pages', now, ids, bounds);
        expect(last.get('conn_a')).toBe(all.findLast((e) => e.connectionId === 'conn_a')!.at);
        expect(last.get('conn_b')).toBe(all.findLast((e) => e.connectionId === 'conn_b')!.at);
        expect(last.get('conn_never')).toBeUndefined();
        expect((await restarted.lastUsed('ws_pages', now, ids, { ...bounds, pageScanBytes: 10_000_000 })).get('conn_never')).toBeNull();
      } finally {
        await restarted.close();
      }
    } finally {
      await log.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rule:activity-refusals-folded — refusals after the first of a period are written as one counted entry when it ends, and on close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-mcp-activity-fold-'));
    const log = new ActivityLog(dir, 90);
    try {
      const refusal = (at: string): ActivityEntry => ({ ...entry(1, at), outcome: 'refused', code: 'rate_limited' });
      const t0 = Date.now();
      await log.appendRefused(refusal(new Date(t0).toISOString()), t0, 100);
      for (let i = 1; i <= 10; i++) await log.appendRefused(refusal(new Date(t0 + i).toISOString()), t0 + i, 100);
      await log.flush();
      const lines = async () => (await readFile(join(dir, 'activity', 'ws_pages', `${new Date(t0).toISOString().slice(0, 10)}.jsonl`), 'utf8')).split('\n').filter(Boolean);
      expect(await lines()).toHaveLength(1);
      // The period's end writes the count, without a read.
      for (let waited = 0; (await lines()).length < 2 && waited < 3000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      const counted = JSON.parse((await lines())[1]!) as ActivityEntry;
      expect(counted.count).toBe(10);
      // A new period starts with an entry of its own; what it counts is written on close.
      await log.appendRefused(refusal(new Date(t0 + 500).toISOString()), t0 + 500, 60_000);
      for (let i = 1; i <= 4; i++) await log.appendRefused(refusal(new Date(t0 + 500 + i).toISOString()), t0 + 500 + i, 60_000);
      await log.close();
      const after = (await lines()).map((l) => JSON.parse(l) as ActivityEntry);
      expect(after.map((e) => e.count ?? 1)).toEqual([1, 10, 1, 4]);
    } finally {
      await log.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
