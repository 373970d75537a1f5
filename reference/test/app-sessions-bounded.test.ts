// App sessions stay bounded (rule memory-caller-keyed-maps-bounded): an expired session goes when new ones are made,
// not only when its cookie comes back (most never do), and one person holds at most
// spec/limits.json memory.appSessionsPerUser sessions, a new sign-in signing the oldest out.
import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { limits } from '../catalogue.js';
import { Sessions } from '../web/session.js';
import { appPage, signInCookie, startTestServer, type TestServer } from './harness.js';

/** A request carrying `cookie` (name=value), as far as Sessions reads one. */
const requestWith = (cookie: string) => ({ cookies: { get: (name: string) => (cookie.startsWith(`${name}=`) ? cookie.slice(name.length + 1) : undefined) } }) as unknown as Context;

describe('app sessions (rule memory-caller-keyed-maps-bounded)', () => {
  it('rule:memory-caller-keyed-maps-bounded — one person holds at most perUser sessions; a new one signs the oldest out, others are untouched', () => {
    const sessions = new Sessions({ perUser: 3 });
    const olive = Array.from({ length: 5 }, () => sessions.open('usr_olive', 'ws_1').cookie);
    const nina = sessions.open('usr_nina', 'ws_2').cookie;
    expect(sessions.counts()).toEqual({ sessions: 4, people: 2 });
    expect(olive.map((cookie) => sessions.current(requestWith(cookie)) !== undefined)).toEqual([false, false, true, true, true]);
    expect(sessions.current(requestWith(nina))?.userId).toBe('usr_nina');
  });

  it('rule:memory-caller-keyed-maps-bounded — expired sessions go when new ones are made, though their cookies never come back', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    try {
      const sessions = new Sessions({ perUser: 100 });
      for (let i = 0; i < 50; i++) sessions.open(`usr_${i}`, `ws_${i}`);
      vi.setSystemTime(Date.UTC(2026, 0, 1, 9));
      const fresh = sessions.open('usr_new', 'ws_new').cookie;
      expect(sessions.counts()).toEqual({ sessions: 1, people: 1 });
      expect(sessions.current(requestWith(fresh))?.userId).toBe('usr_new');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('app sessions over HTTP (rule memory-caller-keyed-maps-bounded)', () => {
  let test: TestServer;
  let world: WorldWithPasswords;
  beforeAll(async () => {
    test = await startTestServer('app-sessions-bounded');
    world = await test.fx.world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('rule:memory-caller-keyed-maps-bounded — signing in again and again holds appSessionsPerUser sessions, the newest working', async () => {
    const perUser = limits.memory.appSessionsPerUser;
    const before = test.server.parts.sessions.counts().sessions;
    const cookies: string[] = [];
    for (let i = 0; i < perUser + 5; i++) cookies.push(await signInCookie(test.url, world.users.olive!));
    expect(test.server.parts.sessions.counts().sessions - before).toBeLessThanOrEqual(perUser);
    expect((await appPage(test.url, '/app/', cookies.at(-1)!)).status).toBe(200);
    // The first sign-ins were signed out: their cookie sends the visitor to sign in.
    expect((await appPage(test.url, '/app/', cookies[0]!)).status).toBe(302);
  }, 60_000);
});
