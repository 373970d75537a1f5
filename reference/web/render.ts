// Pages for a person come from the Eta templates in views/, which escape every `<%= %>` interpolation
// (autoEscape), so a site name, a client's self-asserted name or a plan summary is text, never markup. Raw output
// (`<%~ %>`) is used only to place one template inside another. Every owner-facing answer carries the same strict
// headers; the published site has its own, stricter policy (public-site.ts).
import { Eta } from 'eta';
import type { Context } from 'koa';
import { fileURLToPath } from 'node:url';

const eta = new Eta({
  views: fileURLToPath(new URL('./views/', import.meta.url)),
  autoEscape: true,
  autoTrim: [false, 'nl'],
  cache: true,
  defaultExtension: '.eta',
});

/** Renders a template of views/ to a string (for tests and the public site, which sets its own headers). */
export function renderView(view: string, data: Record<string, unknown>): string {
  return eta.render(`./${view}`, data);
}

/**
 * Headers of every owner-facing response, redirects included (rule app-pages-frame-protection): never framed
 * (clickjacking an Approve button), never sniffed, and no Referer to other origins, since app addresses carry plan
 * ids and pairing codes.
 */
export function appSecurityHeaders(ctx: Context): void {
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer Chromium sends "Origin: null" on form posts, which the
  // Host/Origin check (rightly) refuses, so sign-in and approval would break in a real browser.
  ctx.set('Referrer-Policy', 'same-origin');
}

/**
 * A CSP source for where a form's redirect chain may end (a client's registered redirect URI): the origin of an
 * http(s) URI, the scheme of a native app's (`cursor:`); null for anything that cannot be a safe source.
 */
export function formTargetSource(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !['javascript:', 'data:', 'blob:', 'file:'].includes(url.protocol) ? url.protocol : null;
}

export interface PageOptions {
  status?: number;
  /**
   * Other places a form on this page may end up after its redirects. Browsers apply form-action to the whole
   * redirect chain, so the OAuth consent form lists the client's redirect URIs or its answer is blocked.
   */
  formTargets?: readonly string[];
  /**
   * Lets the page's own inline script run (the token page's copy button): the CSP names this per-response nonce
   * and no other script source, so an injected script still cannot run.
   */
  scriptNonce?: string;
}

/**
 * Answers with `view` inside the app layout. `data.title` is the page's one <h1>; `ctx.state.session`, when set,
 * gives the layout its navigation and the forms their CSRF token.
 */
export function render(ctx: Context, view: string, data: { title: string } & Record<string, unknown>, options: PageOptions = {}): void {
  ctx.status = options.status ?? 200;
  ctx.type = 'text/html';
  const formAction = ["'self'", ...new Set((options.formTargets ?? []).map(formTargetSource).filter((s): s is string => s !== null))].join(' ');
  const script = options.scriptNonce ? `; script-src 'nonce-${options.scriptNonce}'` : '';
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'${script}`);
  appSecurityHeaders(ctx);
  ctx.set('Cache-Control', 'no-store');
  const session = ctx.state.session as { csrf: string } | undefined;
  ctx.body = eta.render(`./${view}`, { ...data, csrf: session?.csrf ?? '', signedIn: Boolean(session), nonce: options.scriptNonce ?? '' });
}

/** A page of a few sentences and links: errors, refusals, confirmations. */
export function message(ctx: Context, title: string, text: string | readonly string[], status = 200, links: readonly { href: string; text: string }[] = []): void {
  render(ctx, 'message', { title, paragraphs: typeof text === 'string' ? [text] : text, links }, { status });
}
