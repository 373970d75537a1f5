// Published sites are observable from outside: GET /sites/<websiteId>/[<slug>] renders the live
// snapshot, never the draft, each section by its type in the brand's palette and fonts (web/site-view.ts), and
// answers 404 with the same "nothing is published here" page for an unpublished site, an unknown one and an
// unknown page. All text is escaped by the template: content is plain text by schema, and escaping is the second
// wall.
import type { Context } from 'koa';
import type { Store } from '../infra/store/store.js';
import { entryOf } from '../domain/model.js';
import { renderNotPublished, renderSitePage } from './site-view.js';

// A published page is static text (rule public-site-security-headers): no script may run at all, images may
// come from this origin or any https/data source, styles inline or from this origin; it cannot be framed
// (clickjacking), carry a <base> or a form, be sniffed into another type, or send its full address onward.
const PUBLIC_CSP = "default-src 'none'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function publicSecurityHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', PUBLIC_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
}

export function publicSiteHandler(store: Store) {
  return async (ctx: Context): Promise<void> => {
    publicSecurityHeaders(ctx); // the 404 too
    const websiteId = ctx.params.websiteId as string;
    const wsId = await store.lookupDirectory('site', websiteId);
    const site = wsId ? entryOf((await store.read(wsId))?.sites ?? {}, websiteId) : undefined;
    const live = site?.published;
    const slug = (ctx.params.slug as string | undefined) ?? 'home';
    const page = live?.content.pages.find((p) => p.slug === slug && !p.hidden);
    if (!site || !live || !page) {
      ctx.status = 404;
      ctx.type = 'text/html';
      ctx.body = renderNotPublished();
      return;
    }
    ctx.type = 'text/html';
    ctx.set('X-Site-Revision', String(live.revision));
    ctx.body = renderSitePage(site, live.content, page, { basePath: `/sites/${encodeURIComponent(site.websiteId)}/`, searchVisible: site.searchVisible });
  };
}
