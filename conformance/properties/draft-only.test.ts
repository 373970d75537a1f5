// rule:content-write-draft-only, over HTTP: random sequences of content tool calls never change the
// published snapshot, and every successful one bumps the site revision (rule:content-write-bumps-revision).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { connect, params, worldWithSite } from './harness.js';

type Site = Awaited<ReturnType<typeof worldWithSite>>['site'];
const text = fc.stringMatching(/^[A-Za-z0-9 .,!?'-]{1,40}$/);
const command = (site: Site) =>
  fc.oneof(
    text.map((t) => ({ tool: 'update_section_text', args: { sectionId: site.pages.home!.sections.hero!, field: 'heading', text: t } })),
    text.map((t) => ({ tool: 'update_section_text', args: { sectionId: site.pages.home!.sections.intro!, field: 'body', text: t } })),
    text.map((t) => ({ tool: 'update_page_seo', args: { pageId: site.pages.home!.pageId, description: t } })),
    text.map((t) => ({ tool: 'add_section', args: { pageId: site.pages.home!.pageId, type: 'text', content: { body: t } } })),
    fc.nat(3).map((p) => ({ tool: 'move_section', args: { sectionId: site.pages.home!.sections.hero!, position: p } })),
    fc.boolean().map((h) => ({ tool: 'set_section_hidden', args: { sectionId: site.pages.home!.sections.intro!, hidden: h } })),
    text.map((t) => ({ tool: 'create_page', args: { title: t } })),
    text.map((t) => ({ tool: 'create_blog_post', args: { title: t, body: t } })),
  );

describe('content tools and the live site', () => {
  it('rule:content-write-draft-only rule:content-write-bumps-revision — no sequence of content edits changes the published snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (salt) => {
        const { fx, site, owner } = await worldWithSite();
        const c = await connect(fx, owner.userId, site.websiteId, ['content:write']);
        const before = await fx.siteState(site.websiteId);
        try {
          const commands = fc.sample(fc.array(command(site), { minLength: 1, maxLength: 8 }), { numRuns: 1, seed: salt })[0]!;
          let successes = 0;
          for (const cmd of commands) {
            const { envelope } = await c.mcp.callTool(cmd.tool, cmd.args);
            if (envelope.ok) successes++;
          }
          const after = await fx.siteState(site.websiteId);
          expect(after.publishedFingerprint).toBe(before.publishedFingerprint);
          expect(after.publishedRevision).toBe(before.publishedRevision);
          expect(after.siteRevision).toBe(before.siteRevision + successes);
        } finally {
          await c.mcp.close();
        }
      }),
      params(15),
    );
  });
});
