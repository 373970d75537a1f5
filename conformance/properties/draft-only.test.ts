// rule:content-write-draft-only, over HTTP: random sequences of content tool calls never change the
// published snapshot, and every successful one bumps the site revision (rule:content-write-bumps-revision).
// Commands are symbolic (they name "hero", "intro", "home") and are bound to the ids of a fresh world at run
// time, so fast-check can shrink a failing sequence to a minimal one.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sectionVocabularyIfDeclared } from '../lib/declaration.js';
import { connect, params, worldWithSite } from './harness.js';

type Site = Awaited<ReturnType<typeof worldWithSite>>['site'];
type Command = { tool: string; args: (site: Site) => Record<string, unknown>; label: string };

const text = fc.stringMatching(/^[A-Za-z0-9 .,!?'-]{1,40}$/);
const hero = (s: Site) => s.pages.home!.sections.hero!;
const intro = (s: Site) => s.pages.home!.sections.intro!;
const home = (s: Site) => s.pages.home!.pageId;

// Section types and field names are our decision (section-types): the commands that need them run only when the
// target declares its vocabulary or adopts ours.
const field = (name: string) => sectionVocabularyIfDeclared('fields', name);
const textType = sectionVocabularyIfDeclared('types', 'text');
const vocabularyCommands: fc.Arbitrary<Command>[] = [
  ...(field('heading') ? [text.map((t) => ({ tool: 'update_section_text', label: `hero heading "${t}"`, args: (s: Site) => ({ sectionId: hero(s), field: field('heading'), text: t }) }))] : []),
  ...(field('body') ? [text.map((t) => ({ tool: 'update_section_text', label: `intro body "${t}"`, args: (s: Site) => ({ sectionId: intro(s), field: field('body'), text: t }) }))] : []),
  ...(field('body') && textType ? [text.map((t) => ({ tool: 'add_section', label: `add text "${t}"`, args: (s: Site) => ({ pageId: home(s), type: textType, content: { [field('body')!]: t } }) }))] : []),
];

const command: fc.Arbitrary<Command> = fc.oneof(
  ...vocabularyCommands,
  text.map((t) => ({ tool: 'update_page_seo', label: `seo "${t}"`, args: (s: Site) => ({ pageId: home(s), description: t }) })),
  fc.nat(3).map((p) => ({ tool: 'move_section', label: `move hero to ${p}`, args: (s: Site) => ({ sectionId: hero(s), position: p }) })),
  fc.boolean().map((h) => ({ tool: 'set_section_hidden', label: `intro hidden ${h}`, args: (s: Site) => ({ sectionId: intro(s), hidden: h }) })),
  text.map((t) => ({ tool: 'create_page', label: `page "${t}"`, args: () => ({ title: t }) })),
  text.map((t) => ({ tool: 'create_blog_post', label: `post "${t}"`, args: () => ({ title: t, body: t }) })),
).map((c) => Object.assign(c, { toString: () => `${c.tool}(${c.label})` }));

describe('content tools and the live site', () => {
  it('rule:content-write-draft-only rule:content-write-bumps-revision — no sequence of content edits changes the published snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const { fx, site, owner } = await worldWithSite();
        const c = await connect(fx, owner.userId, site.websiteId, ['content:write']);
        const before = await fx.siteState(site.websiteId);
        try {
          let successes = 0;
          for (const cmd of commands) {
            const { envelope } = await c.mcp.callTool(cmd.tool, cmd.args(site));
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
