// Published sites are observable from outside (issue 4): GET /sites/<websiteId>/[<slug>] renders the live
// snapshot, never the draft, and answers 404 for an unpublished site. All text is escaped: content is plain
// text by schema, and escaping here is the second wall.
import type { Context } from 'koa';
import type { Page, Section } from '../domain/model.js';
import type { Runtime } from '../runtime.js';
import { entryOf } from '../domain/model.js';

const escape = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function renderSection(section: Section): string {
  const c = section.content as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['heading', 'title', 'subheading', 'body', 'caption', 'quote']) if (typeof c[key] === 'string') parts.push(`<p class="${key}">${escape(c[key])}</p>`);
  for (const item of (Array.isArray(c.items) ? c.items : []) as Record<string, unknown>[]) {
    parts.push(`<li>${Object.values(item).filter((v) => typeof v === 'string').map(escape).join(' — ')}</li>`);
  }
  return `<section data-key="${escape(section.key)}" data-type="${escape(section.type)}">${parts.join('')}</section>`;
}

function renderPage(title: string, page: Page, searchVisible: boolean): string {
  const robots = searchVisible ? '' : '<meta name="robots" content="noindex">';
  const sections = page.sections.filter((s) => !s.hidden).map(renderSection).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8">${robots}<title>${escape(page.seo.title || page.title)} · ${escape(title)}</title></head><body><main>\n${sections}\n</main></body></html>`;
}

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

export function publicSiteHandler(rt: Runtime) {
  return async (ctx: Context): Promise<void> => {
    publicSecurityHeaders(ctx); // the 404 too
    const websiteId = ctx.params.websiteId as string;
    const wsId = await rt.store.lookupDirectory('site', websiteId);
    const site = wsId ? entryOf((await rt.store.read(wsId))?.sites ?? {}, websiteId) : undefined;
    const live = site?.published;
    const slug = (ctx.params.slug as string | undefined) ?? 'home';
    const page = live?.content.pages.find((p) => p.slug === slug && !p.hidden);
    if (!site || !live || !page) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    ctx.type = 'text/html';
    ctx.set('X-Site-Revision', String(live.revision));
    ctx.body = renderPage(site.businessName, page, site.searchVisible);
  };
}
