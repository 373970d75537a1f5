// Session and CSRF for every page a person uses, in one place: `signedIn` puts the app session on
// ctx.state.session or sends the visitor to sign-in (returning here afterwards), and `checkedForm` reads a posted
// form once and refuses it unless it carries the session's CSRF token. Routes compose them
// (`router.post(path, signedIn(rt), checkedForm, handler)`) instead of repeating guards, so a new form cannot forget
// either check.
import type { Context, Next } from 'koa';
import { timingSafeEqual } from 'node:crypto';
import { readRawBody } from '../http/body.js';
import type { AppSession, Sessions } from '../http/app/sessions.js';
import { message } from './render.js';

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
