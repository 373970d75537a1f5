// rule:authz-cross-tenant-not-found and rule:crm-update-cross-site-not-found, over HTTP: an id from another
// workspace answers exactly like an id that does not exist — same code, same message once the id is masked.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { adopts, declaredErrorCode, sectionVocabularyIfDeclared } from '../lib/declaration.js';
import { connect, params, worldWithSite } from './harness.js';

type Ids = Awaited<ReturnType<typeof worldWithSite>>['site'];
type Probe = { tool: string; args: (ids: Ids, id: (kind: string) => string) => Record<string, unknown>; kind: string };
// A probe whose arguments carry one of our decision values (a field name, a booking status) runs only when the
// target shares it: else its refusal could be about that value, not the id.
const heading = sectionVocabularyIfDeclared('fields', 'heading');
const PROBES: Probe[] = [
  { tool: 'get_site_overview', kind: 'site', args: (_s, id) => ({ websiteId: id('site') }) },
  { tool: 'get_page', kind: 'page', args: (_s, id) => ({ pageId: id('page') }) },
  ...(heading ? [{ tool: 'update_section_text', kind: 'section', args: (_s: Ids, id: (kind: string) => string) => ({ sectionId: id('section'), field: heading, text: 'x' }) }] : []),
  { tool: 'set_section_hidden', kind: 'section', args: (_s, id) => ({ sectionId: id('section'), hidden: true }) },
  { tool: 'get_section_json', kind: 'section', args: (_s, id) => ({ sectionId: id('section') }) },
  { tool: 'crm_update', kind: 'lead', args: (_s, id) => ({ recordType: 'lead', recordId: id('lead'), changes: { handled: true } }) },
  ...(adopts('crm-status-values') ? [{ tool: 'crm_update', kind: 'booking', args: (_s: Ids, id: (kind: string) => string) => ({ recordType: 'booking', recordId: id('booking'), changes: { status: 'no_show' } }) }] : []),
  { tool: 'prepare_publish_product', kind: 'product', args: (_s, id) => ({ productId: id('product') }) },
  { tool: 'prepare_send_document', kind: 'document', args: (_s, id) => ({ documentId: id('document') }) },
];

const ALL = ['site:read', 'content:write', 'crm:write', 'commerce:write', 'communications:write'];

const notFound = declaredErrorCode('not_found');

function foreignId(site: Ids, kind: string): string {
  switch (kind) {
    case 'site':
      return site.websiteId;
    case 'page':
      return site.pages.home!.pageId;
    case 'section':
      return site.pages.home!.sections.hero!;
    default:
      return site.records[`${kind}s`]![0]!;
  }
}

describe('tenant isolation', () => {
  it('rule:authz-cross-tenant-not-found rule:crm-update-cross-site-not-found — a foreign id answers exactly like a missing one', async () => {
    const mine = await worldWithSite();
    const theirs = await worldWithSite();
    const c = await connect(mine.fx, mine.owner.userId, mine.site.websiteId, ALL);
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...PROBES), fc.stringMatching(/^[A-Za-z0-9_-]{4,24}$/), async (probe, missing) => {
          const foreign = foreignId(theirs.site, probe.kind);
          const a = await c.mcp.callTool(probe.tool, probe.args(mine.site, () => foreign));
          const b = await c.mcp.callTool(probe.tool, probe.args(mine.site, () => missing));
          expect(a.envelope.ok, `${probe.tool} reached another tenant's ${probe.kind}`).toBe(false);
          // The same answer as for a missing id (source); the code itself only when declared.
          expect(a.envelope.error!.code).toBe(b.envelope.error!.code);
          if (notFound) expect(a.envelope.error!.code).toBe(notFound);
          const mask = (text: string, id: string) => text.split(id).join('<id>');
          expect(mask(a.envelope.error!.message, foreign)).toBe(mask(b.envelope.error!.message, missing));
          expect(a.envelope.error!.details ?? null).toEqual(b.envelope.error!.details ?? null);
        }),
        params(40),
      );
    } finally {
      await c.mcp.close();
    }
  });
});
