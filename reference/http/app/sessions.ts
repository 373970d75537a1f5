// Signed-in app sessions: an unguessable id in an HttpOnly, SameSite=Strict cookie, held in memory (a restart
// signs everyone out, acceptable for the reference server), with a per-session CSRF token for every form.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';

export interface AppSession {
  userId: string;
  workspaceId: string;
  csrf: string;
  expiresAt: number;
}

const COOKIE = 'smcp_session';
const LIFETIME_MS = 8 * 3_600_000;

export class Sessions {
  #byId = new Map<string, AppSession>();

  start(ctx: Context, userId: string, workspaceId: string): AppSession {
    const id = randomBytes(32).toString('base64url');
    const session = { userId, workspaceId, csrf: randomBytes(24).toString('base64url'), expiresAt: Date.now() + LIFETIME_MS };
    this.#byId.set(id, session);
    ctx.cookies.set(COOKIE, id, { httpOnly: true, sameSite: 'strict', path: '/', overwrite: true, signed: false });
    return session;
  }

  current(ctx: Context): AppSession | undefined {
    const id = ctx.cookies.get(COOKIE);
    const session = id ? this.#byId.get(id) : undefined;
    if (!session) return undefined;
    if (session.expiresAt < Date.now()) {
      this.#byId.delete(id!);
      return undefined;
    }
    return session;
  }

  end(ctx: Context): void {
    const id = ctx.cookies.get(COOKIE);
    if (id) this.#byId.delete(id);
    ctx.cookies.set(COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 });
  }
}
