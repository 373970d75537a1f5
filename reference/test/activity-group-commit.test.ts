// The activity log's durable append, made cheap without weakening it (rules activity-entry-every-call,
// store-durable-commit, activity-retention-90-days): a day file stays open, and appends that wait for the same
// fdatasync share it. Each test counts the log's file system calls through its `fs` seam (a wrapper around node's).
import { mkdir, mkdtemp, open, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActivityLog, type ActivityEntry, type ActivityFs, type DayFileHandle } from '../infra/store/activity.js';
import { fsyncDirectory } from '../infra/store/durable-file.js';
import { ownerWithConnection, startTestServer } from './harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-activity-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WS = 'ws_1';
function entry(at: string, name: string, workspaceId = WS): ActivityEntry {
  return { at, connectionId: 'conn_1', workspaceId, websiteId: null, kind: 'tool', name, outcome: 'ok' };
}

/** Node's file system, counted, with hooks a test sets to slow or fail a call. */
function countingFs() {
  const counts = { opens: 0, writes: 0, syncs: 0, closes: 0, truncates: 0 };
  const openFiles = new Set<string>();
  const hooks: { beforeSync?: (path: string) => Promise<void>; beforeWrite?: (path: string) => Promise<void> } = {};
  /** After each fdatasync returned: the file's content then, so a test can tell what a sync covered. */
  const synced = new Map<string, string>();
  const fs: ActivityFs = {
    async open(path) {
      const handle = await open(path, 'a+');
      counts.opens++;
      openFiles.add(path);
      const counted: DayFileHandle = {
        writeFile: async (text, encoding) => {
          await hooks.beforeWrite?.(path);
          counts.writes++;
          await handle.writeFile(text, encoding);
        },
        datasync: async () => {
          await hooks.beforeSync?.(path);
          counts.syncs++;
          await handle.datasync();
          synced.set(path, await readFile(path, 'utf8'));
        },
        truncate: async (length) => {
          counts.truncates++;
          await handle.truncate(length);
        },
        stat: () => handle.stat(),
        read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
        close: async () => {
          counts.closes++;
          openFiles.delete(path);
          await handle.close();
        },
      };
      return counted;
    },
    syncDirectory: fsyncDirectory,
  };
  return { fs, counts, openFiles, hooks, synced };
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const dayFile = (day: string, workspaceId = WS) => join(dir, 'activity', workspaceId, `${day}.jsonl`);

describe('activity log: group commit', () => {
  it('rule:activity-entry-every-call rule:store-durable-commit — 50 concurrent appends are all on disk, with far fewer syncs than appends, each resolved only after a sync that covers it', async () => {
    const { fs, counts, hooks, synced } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    const path = dayFile('2026-11-23');
    hooks.beforeSync = () => delay(20); // a slow disk, so that appends pile up behind each sync
    const resolvedCovered: boolean[] = [];
    const appends: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      const name = `tool_${i}`;
      appends.push(log.append(entry('2026-11-23T10:00:00.000Z', name)).then(() => void resolvedCovered.push(synced.get(path)?.includes(`"name":"${name}"`) ?? false)));
      if (i % 10 === 9) await delay(7); // five waves, some arriving while a sync runs
    }
    await Promise.all(appends);
    expect(resolvedCovered).toHaveLength(50);
    expect(resolvedCovered.every(Boolean), 'an append resolved before a sync covering its line').toBe(true);
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(50);
    expect(new Set(lines.map((l) => (JSON.parse(l) as ActivityEntry).name)).size).toBe(50);
    expect(counts.syncs).toBeLessThan(50);
    expect(counts.syncs).toBeLessThanOrEqual(5);
    expect(counts.writes).toBe(counts.syncs); // one write per sync
    expect(counts.opens, 'the day file is opened once, not for each batch').toBe(1);
    await log.close();
  });

  it('appends queued while a sync runs go out together in the next write and sync', async () => {
    const { fs, counts, hooks } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    let releaseFirst!: () => void;
    const firstSyncHeld = new Promise<void>((r) => (releaseFirst = r));
    hooks.beforeSync = async () => {
      if (counts.syncs === 0) await firstSyncHeld;
    };
    const first = log.append(entry('2026-11-23T10:00:00.000Z', 'first'));
    await delay(20); // the first batch is now waiting in its sync
    let laterResolved = 0;
    const later = Array.from({ length: 10 }, (_, i) => log.append(entry('2026-11-23T10:00:01.000Z', `later_${i}`)).then(() => void laterResolved++));
    await delay(20);
    expect(laterResolved, 'an append resolved while the sync before it still ran').toBe(0);
    releaseFirst();
    await Promise.all([first, ...later]);
    expect(counts.syncs).toBe(2);
    expect(counts.writes).toBe(2);
    await log.close();
  });

  it('rule:activity-log-fails-closed — a sync that fails once is retried after cutting the file back, so the batch is kept once and its appends resolve', async () => {
    const { fs, counts, hooks } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    await log.append(entry('2026-11-23T09:00:00.000Z', 'before'));
    hooks.beforeSync = async () => {
      hooks.beforeSync = undefined;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    await Promise.all(Array.from({ length: 5 }, (_, i) => log.append(entry('2026-11-23T10:00:00.000Z', `retried_${i}`))));
    expect(counts.closes, 'the handle whose sync failed is closed').toBe(1);
    expect(counts.opens).toBe(2);
    expect(counts.truncates, 'the written but unsynced batch is cut before it is written again').toBe(1);
    expect(log.isFailing(WS)).toBe(false);
    await log.append(entry('2026-11-23T11:00:00.000Z', 'after'));
    const names = (await log.read(WS, new Date('2026-11-23T12:00:00.000Z'))).map((e) => e.name);
    expect(names).toEqual(['before', 'retried_0', 'retried_1', 'retried_2', 'retried_3', 'retried_4', 'after']);
    await log.close();
  });

  it('rule:store-durable-commit — a torn line a failed write left is cut, and the retried batch follows the last whole line', async () => {
    const { fs, hooks } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    const path = dayFile('2026-11-23');
    await log.append(entry('2026-11-23T09:00:00.000Z', 'before'));
    hooks.beforeWrite = async (p) => {
      hooks.beforeWrite = undefined;
      await writeFile(p, '{"at":"2026-11-23T09:30', { flag: 'a' }); // the part of a line a failing write got out
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await log.append(entry('2026-11-23T10:00:00.000Z', 'retried'));
    await log.append(entry('2026-11-23T11:00:00.000Z', 'after'));
    expect((await log.read(WS, new Date('2026-11-23T12:00:00.000Z'))).map((e) => e.name)).toEqual(['before', 'retried', 'after']);
    expect(await readFile(path, 'utf8')).not.toContain('09:30');
    await log.close();
  });

  it('rule:activity-log-fails-closed — a batch that fails every attempt rejects its appends, is kept as the backlog, and is written once, before later entries, when the disk recovers', async () => {
    const { fs, counts, hooks } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    await log.append(entry('2026-11-23T09:00:00.000Z', 'before'));
    let failures = 0;
    hooks.beforeSync = async () => {
      failures++;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    const batch = await Promise.allSettled(Array.from({ length: 3 }, (_, i) => log.append(entry('2026-11-23T10:00:00.000Z', `kept_${i}`))));
    expect(batch.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((batch[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'EIO' });
    expect(failures, 'three attempts, then the backlog').toBe(3);
    expect(log.isFailing(WS)).toBe(true);
    expect(log.isFailing('ws_other')).toBe(false);
    expect(await log.recover(WS), 'the disk still fails').toBe(false);
    hooks.beforeSync = undefined;
    expect(await log.recover(WS)).toBe(true);
    expect(log.isFailing(WS)).toBe(false);
    await log.append(entry('2026-11-23T11:00:00.000Z', 'after'));
    const names = (await log.read(WS, new Date('2026-11-23T12:00:00.000Z'))).map((e) => e.name);
    expect(names, 'each entry once, the backlog before what came after').toEqual(['before', 'kept_0', 'kept_1', 'kept_2', 'after']);
    expect(counts.truncates).toBeGreaterThan(0);
    await log.close();
  });

  it('rule:activity-log-fails-closed — a later append of the workspace, to another day file, tries the backlog again too', async () => {
    const { fs, hooks } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    hooks.beforeSync = async () => {
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    await expect(log.append(entry('2026-11-23T23:59:59.000Z', 'late'))).rejects.toMatchObject({ code: 'EIO' });
    expect(log.isFailing(WS)).toBe(true);
    hooks.beforeSync = undefined;
    await log.append(entry('2026-11-24T00:00:01.000Z', 'next_day'));
    await log.flush();
    expect(log.isFailing(WS)).toBe(false);
    expect((await log.read(WS, new Date('2026-11-24T12:00:00.000Z'))).map((e) => e.name)).toEqual(['late', 'next_day']);
    await log.close();
  });

  it('a day file that a crash left with a torn tail gets the next entry on a line of its own', async () => {
    await mkdir(join(dir, 'activity', WS), { recursive: true });
    await writeFile(dayFile('2026-11-23'), `${JSON.stringify(entry('2026-11-23T08:00:00.000Z', 'kept'))}\n{"at":"2026-11-23T08:0`);
    const log = new ActivityLog(dir, 90);
    await log.append(entry('2026-11-23T09:00:00.000Z', 'next'));
    expect((await log.read(WS, new Date('2026-11-23T12:00:00.000Z'))).map((e) => e.name)).toEqual(['kept', 'next']);
    await log.close();
  });
});

describe('activity log: open day files', () => {
  it('a new day opens the new day file and closes the previous one once its batch is on disk', async () => {
    const { fs, counts, openFiles } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    await log.append(entry('2026-11-23T23:59:59.000Z', 'late'));
    expect([...openFiles]).toEqual([dayFile('2026-11-23')]);
    await log.append(entry('2026-11-24T00:00:00.000Z', 'early'));
    await delay(0);
    expect([...openFiles]).toEqual([dayFile('2026-11-24')]);
    expect(counts.closes).toBe(1);
    // Another workspace's day file is its own.
    await log.append(entry('2026-11-24T00:00:01.000Z', 'other', 'ws_2'));
    expect(openFiles.size).toBe(2);
    expect((await log.read(WS, new Date('2026-11-24T12:00:00.000Z'))).map((e) => e.name)).toEqual(['late', 'early']);
    await log.close();
    expect(openFiles.size, 'server stop closes every day file').toBe(0);
  });

  it('rule:activity-retention-90-days — pruning a day file past retention closes its open handle first', async () => {
    const { fs, openFiles } = countingFs();
    const log = new ActivityLog(dir, 90, fs);
    await log.append(entry('2026-08-01T10:00:00.000Z', 'old'));
    expect(openFiles.has(dayFile('2026-08-01'))).toBe(true);
    expect(await log.read(WS, new Date('2026-11-23T12:00:00.000Z'))).toEqual([]);
    expect(openFiles.size).toBe(0);
    expect(await readdir(join(dir, 'activity', WS))).toEqual([]);
    // An entry of that day appended later (a test clock moved back) is written to a new file, not a deleted inode.
    await log.append(entry('2026-08-01T11:00:00.000Z', 'again'));
    expect(await readdir(join(dir, 'activity', WS))).toEqual(['2026-08-01.jsonl']);
    await log.close();
  });

  it('rule:activity-retention-90-days — day files past retention go when the log is written on a new day, though nobody reads it', async () => {
    const log = new ActivityLog(dir, 90);
    await log.append(entry('2026-08-01T10:00:00.000Z', 'old'));
    await log.append(entry('2026-09-01T10:00:00.000Z', 'kept'));
    await log.append(entry('2026-11-23T10:00:00.000Z', 'today'));
    // The prune runs beside the append; give it its turn (bounded).
    for (let i = 0; i < 100 && (await readdir(join(dir, 'activity', WS))).includes('2026-08-01.jsonl'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await readdir(join(dir, 'activity', WS))).sort()).toEqual(['2026-09-01.jsonl', '2026-11-23.jsonl']);
    await log.close();
  });

  it('rule:activity-log-fails-closed — a day file that cannot be opened: the call answers, later calls are refused unchanged until the disk recovers, and then every entry is there', async () => {
    // The real path: a plain file where the workspace's activity directory belongs makes every open fail (ENOTDIR).
    const test = await startTestServer('activity-fail');
    try {
      const { mcp, world, workspaceId, websiteId, connectionId } = await ownerWithConnection(test, ['site:read', 'content:write']);
      try {
        const home = world.sites.main!.pages.home!;
        const pageId = home.pageId;
        const section = { sectionId: home.sections.hero! };
        await mkdir(join(test.dir, 'activity'), { recursive: true });
        await writeFile(join(test.dir, 'activity', workspaceId), 'not a directory');
        // Answered: its business work is done, and repeating it would do it twice.
        expect((await mcp.callTool('list_sites')).envelope.ok).toBe(true);
        // While the log fails, a write is refused before it runs and changes nothing.
        const refused = await mcp.callTool('update_section_text', { websiteId, sectionId: section.sectionId, field: 'heading', text: 'Written during the outage' });
        expect(refused.envelope).toMatchObject({ ok: false, error: { code: 'operation_failed' } });
        const after = await mcp.callTool('get_page', { websiteId, pageId });
        expect(JSON.stringify(after.envelope)).not.toContain('Written during the outage');
        await rm(join(test.dir, 'activity', workspaceId));
        // The disk is back: the next call writes the backlog first and runs.
        expect((await mcp.callTool('get_site_overview', { websiteId })).envelope.ok).toBe(true);
        const entries = (await test.fx.activity(connectionId)).entries.map((e) => `${e.name}:${e.outcome}`);
        const tail = entries.slice(entries.indexOf('list_sites:ok'));
        expect(tail, 'every call of the outage logged once, in order').toEqual([
          'list_sites:ok',
          'update_section_text:refused',
          'get_page:refused',
          'get_site_overview:ok',
        ]);
      } finally {
        await mcp.close();
      }
    } finally {
      await test.stop();
    }
  });

  it('the reference keeps a day file open across calls, and when the workspace clock passes midnight it writes and holds only the new day file', async () => {
    const test = await startTestServer('activity-days');
    try {
      const { mcp, workspaceId, connectionId } = await ownerWithConnection(test, ['site:read']);
      try {
        const activityDir = join(test.dir, 'activity', workspaceId);
        /** The activity day files this process holds open now. */
        const openDayFiles = async () => {
          const fds = await readdir('/proc/self/fd');
          const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
          return targets.filter((t) => t.startsWith(activityDir)).map((t) => t.slice(activityDir.length + 1)).sort();
        };
        await mcp.callTool('list_sites');
        const first = await openDayFiles();
        expect(first).toHaveLength(1);
        await mcp.callTool('get_site_overview');
        expect(await openDayFiles()).toEqual(first);
        await test.fx.advanceClock(workspaceId, 86_400);
        await mcp.callTool('list_sites');
        await delay(20);
        const second = await openDayFiles();
        expect(second).toHaveLength(1);
        expect(second).not.toEqual(first);
        expect((await readdir(activityDir)).sort()).toEqual([...first, ...second].sort());
        const names = (await test.fx.activity(connectionId)).entries.map((e) => e.name);
        expect(names.filter((n) => n === 'list_sites')).toHaveLength(2);
        expect(names).toContain('get_site_overview');
      } finally {
        await mcp.close();
      }
    } finally {
      await test.stop();
    }
  });
});
