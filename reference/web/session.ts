// A person's session in the app and the checks every page makes with it, in one place. A session: an unguessable
// id in an HttpOnly, SameSite=Strict cookie (Secure behind an https base URL), held in memory (a restart signs
// everyone out, acceptable for the reference server), with a per-session CSRF token for every form. `signedIn` puts
// the app session on ctx.state.session or sends the visitor to sign-in (returning here afterwards), and
// `checkedForm` reads a posted form once and refuses it unless it carries the session's CSRF token. Routes compose
// them (`router.post(path, signedIn(rt), checkedForm, handler)`) instead of repeating guards, so a new form cannot
// forget either check.
import type { Context, Next } from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readRawBody } from '../api/body.js';
import { message } from './render.js';

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
  /** Oldest first: every session lives LIFETIME_MS, so this is also the order they expire in. */
  #byId = new Map<string, AppSession>();
  /** Each person's session ids, oldest first. */
  #byUser = new Map<string, string[]>();
  readonly #perUser: number;

  /**
   * `perUser`: the most sessions one person holds (spec/limits.json memory.appSessionsPerUser); a new one signs the
   * oldest out (rule memory-caller-keyed-maps-bounded).
   */
  constructor({ perUser = Number.POSITIVE_INFINITY }: { perUser?: number } = {}) {
    this.#perUser = perUser;
  }

  start(ctx: Context, userId: string, workspaceId: string, baseUrl: string): AppSession {
    const { id, session } = this.#create(userId, workspaceId);
    ctx.cookies.set(COOKIE, id, { ...cookieOptions(ctx, baseUrl), overwrite: true });
    return session;
  }

  #create(userId: string, workspaceId: string): { id: string; session: AppSession } {
    const now = Date.now();
    // Expired sessions go as new ones come, not only when their cookie comes back (most never do).
    for (const [id, session] of this.#byId) {
      if (session.expiresAt >= now) break;
      this.#forget(id);
    }
    // One person's oldest sessions make room; #forget replaces the person's list, so it is read again each time.
    let own = this.#byUser.get(userId) ?? [];
    while (own.length >= this.#perUser) {
      this.#forget(own[0]!);
      own = this.#byUser.get(userId) ?? [];
    }
    const id = randomBytes(32).toString('base64url');
    const session = { userId, workspaceId, csrf: randomBytes(24).toString('base64url'), expiresAt: now + LIFETIME_MS };
    this.#byId.set(id, session);
    this.#byUser.set(userId, [...(this.#byUser.get(userId) ?? []), id]);
    return { id, session };
  }

  #forget(id: string): void {
    const session = this.#byId.get(id);
    if (!session) return;
    this.#byId.delete(id);
    const rest = (this.#byUser.get(session.userId) ?? []).filter((other) => other !== id);
    if (rest.length) this.#byUser.set(session.userId, rest);
    else this.#byUser.delete(session.userId);
  }

  /** How many sessions are held, and for how many people (tests of the memory bound). */
  counts(): { sessions: number; people: number } {
    return { sessions: this.#byId.size, people: this.#byUser.size };
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
      this.#forget(id!);
      return undefined;
    }
    return session;
  }

  end(ctx: Context, baseUrl: string): void {
    const id = ctx.cookies.get(COOKIE);
    if (id) this.#forget(id);
    ctx.cookies.set(COOKIE, '', { ...cookieOptions(ctx, baseUrl), maxAge: 0 });
  }
}

/** Reads a urlencoded form body (at most 64 KiB). */
export async function readForm(ctx: Context): Promise<URLSearchParams> {
  return new URLSearchParams((await readRawBody(ctx.req, 64 * 1024)).toString('utf8'));
}

export function csrfOk(session: AppSession, given: string | null): boolean {
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(given ?? '');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where sign-in may send a person back to: only pages of this app, never another origin. */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/(app|dashboard|oidc-interaction)\//.test(next) && !next.includes('//') ? next : '/app/';
}

/** The signed-in session a `signedIn` middleware placed on the context. */
export function sessionOf(ctx: Context): AppSession {
  const session = ctx.state.session as AppSession | undefined;
  if (!session) throw new Error('sessionOf: the route is not behind signedIn()');
  return session;
}

/** The posted form a `checkedForm` middleware read. */
export function formOf(ctx: Context): URLSearchParams {
  const form = ctx.state.form as URLSearchParams | undefined;
  if (!form) throw new Error('formOf: the route is not behind checkedForm');
  return form;
}

/**
 * Requires a signed-in person. A GET is sent to sign-in and comes back to the same address; a POST (a form of a
 * session that ended) is sent to sign-in only, since its body cannot be replayed.
 */
export function signedIn(sessions: Sessions) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const session = sessions.current(ctx);
    if (!session) {
      ctx.redirect(ctx.method === 'GET' ? `/app/sign-in?next=${encodeURIComponent(ctx.originalUrl)}` : '/app/sign-in');
      return;
    }
    ctx.state.session = session;
    await next();
  };
}

/** Reads the posted form and refuses it (403) unless its `csrf` field is the session's token. After `signedIn`. */
export async function checkedForm(ctx: Context, next: Next): Promise<void> {
  const form = await readForm(ctx);
  if (!csrfOk(sessionOf(ctx), form.get('csrf'))) {
    message(ctx, 'Refused', 'The form expired; reload the page and try again.', 403);
    return;
  }
  ctx.state.form = form;
  await next();
}
