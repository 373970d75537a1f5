// Tiny HTML helpers for the app pages: every interpolated value is escaped; pages carry a strict CSP.
import type { Context } from 'koa';

export const esc = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Headers of every owner-facing response, redirects included (rule app-pages-frame-protection): never framed
 * (clickjacking an Approve button), never sniffed, and no Referer to other origins, since app addresses carry plan ids and
 * pairing codes.
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

/**
 * `formTargets`: other places a form on this page may end up after its redirects. Browsers apply form-action to
 * the whole redirect chain, so the OAuth consent form lists the client's redirect URIs or its answer is blocked.
 */
export function page(ctx: Context, title: string, body: string, status = 200, options: { formTargets?: readonly string[] } = {}): void {
  ctx.status = status;
  ctx.type = 'text/html';
  const formAction = ["'self'", ...new Set((options.formTargets ?? []).map(formTargetSource).filter((s): s is string => s !== null))].join(' ');
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`);
  appSecurityHeaders(ctx);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · site-mcp</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ccd;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}.muted{color:#556}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #eee}code{background:#f4f4f8;padding:0 .25rem}</style>
</head><body><h1>${esc(title)}</h1>${body}</body></html>`;
}
