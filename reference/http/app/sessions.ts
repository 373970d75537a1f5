// Signed-in app sessions: an unguessable id in an HttpOnly, SameSite=Strict cookie (Secure behind an https base
// URL), held in memory (a restart signs everyone out, acceptable for the reference server), with a per-session
// CSRF token for every form.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';

export interface AppSession {
  userId: string;
  workspaceId: string;
  csrf: string;
  expiresAt: number;
  /**
   * A token just minted, kept in memory until the page after the redirect shows it once (POST-redirect-GET: a
   * reload of that page never mints a second token, rule token-shown-once).
   */
  shownOnce?: { connectionId: string; token: string };
}

const COOKIE = 'smcp_session';
const LIFETIME_MS = 8 * 3_600_000;

/**
 * Marks the cookie Secure when the public base URL is https (rule session-cookie-secure-over-https). This hop may
 * be plain http behind a TLS-terminating proxy (app.proxy is false, so X-Forwarded-Proto is not trusted): the
 * configured base URL, not the request, says what the browser sees, and the cookie jar is told so.
 */
function cookieOptions(ctx: Context, baseUrl: string) {
  const secure = baseUrl.startsWith('https:');
  if (secure) ctx.cookies.secure = true;
  return { httpOnly: true, sameSite: 'strict' as const, path: '/', secure, signed: false };
}

export class Sessions {
  #byId = new Map<string, AppSession>();

  start(ctx: Context, userId: string, workspaceId: string, baseUrl: string): AppSession {
    const { id, session } = this.#create(userId, workspaceId);
    ctx.cookies.set(COOKIE, id, { ...cookieOptions(ctx, baseUrl), overwrite: true });
    return session;
  }

  #create(userId: string, workspaceId: string): { id: string; session: AppSession } {
    const id = randomBytes(32).toString('base64url');
    const session = { userId, workspaceId, csrf: randomBytes(24).toString('base64url'), expiresAt: Date.now() + LIFETIME_MS };
    this.#byId.set(id, session);
    return { id, session };
  }

  /**
   * A session not tied to a browser request (test mode: the fixtures protocol's oauth-consent acts as the
   * signed-in owner); answers the cookie to send.
   */
  open(userId: string, workspaceId: string): { cookie: string; session: AppSession } {
    const { id, session } = this.#create(userId, workspaceId);
    return { cookie: `${COOKIE}=${id}`, session };
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

  end(ctx: Context, baseUrl: string): void {
    const id = ctx.cookies.get(COOKIE);
    if (id) this.#byId.delete(id);
    ctx.cookies.set(COOKIE, '', { ...cookieOptions(ctx, baseUrl), maxAge: 0 });
  }
}
