// The import merge of the reference field by field (reference/domain/import-merge.ts mergeDraft; §2.3 rules
// import-merge-*): which side wins each field of a matched section against the value last pushed (three-way), what
// the report lists, forced keys in both forms, a section whose type changed, new pages and sections, blocks and
// revisions. The features check merges black-box on a few fields; these walk every case of the three-way table.
import { describe, expect, it } from 'vitest';
import { mergeDraft } from '../domain/import-merge.js';
import type { PortablePage } from '../domain/portable-site.js';
import type { Site } from '../domain/model.js';

/** A site whose home page has one hero section `sec_1` with `content`; `edited` fields were changed in the app. */
function siteWith(content: Record<string, unknown>, options: { edited?: string[]; base?: Record<string, unknown>; blocks?: unknown[] } = {}) {
  return {
    draft: { pages: [{ pageId: 'page_1', key: 'home', slug: 'home', title: 'Home', kind: 'page', hidden: false, seo: { title: 'Home', description: '' }, sections: [{ sectionId: 'sec_1', key: 'hero', type: 'hero', content, layout: {}, rev: 4, hidden: false, blocks: options.blocks ?? [] }] }] },
    appEdits: options.edited ? { sec_1: options.edited } : {},
    ...(options.base ? { syncBases: { sec_1: options.base } } : {}),
  } as unknown as Site;
}
const push = (content: Record<string, unknown>, extra: Record<string, unknown> = {}) => [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'hero', content, ...extra }] }] as unknown as PortablePage[];
const hero = (site: Site) => site.draft.pages[0]!.sections[0]!;

describe('mergeDraft rule:import-merge-three-way rule:import-merge-field-by-field', () => {
  it('a field the app did not edit takes the pushed value; the section is updated, its revision bumped, the push remembered as base', () => {
    const site = siteWith({ heading: 'Old', subheading: 'Keep' });
    const report = mergeDraft(site, push({ heading: 'New' }), []);
    expect(report).toEqual({ inserted: [], updated: ['home/hero'], keptFields: [] });
    expect(hero(site)).toMatchObject({ content: { heading: 'New', subheading: 'Keep' }, rev: 5 });
    expect(site.syncBases).toEqual({ sec_1: { heading: 'New' } });
    // No app edits before, none after.
    expect(site.appEdits).toEqual({ sec_1: [] });
  });

  it('an app edit with no base (never pushed) is kept against a different pushed value, and reported', () => {
    const site = siteWith({ heading: 'App' }, { edited: ['heading'] });
    const report = mergeDraft(site, push({ heading: 'Pushed' }), []);
    expect(report.keptFields).toEqual([{ key: 'home/hero', field: 'heading', appValue: 'App', pushedValue: 'Pushed' }]);
    expect(hero(site).content).toEqual({ heading: 'App' });
    expect(site.appEdits.sec_1).toEqual(['heading']);
  });

  it('an app edit against an unchanged push is kept silently (only the app changed it)', () => {
    const site = siteWith({ heading: 'App' }, { edited: ['heading'], base: { heading: 'Base' } });
    const report = mergeDraft(site, push({ heading: 'Base' }), []);
    expect(report.keptFields).toEqual([]);
    expect(hero(site).content).toEqual({ heading: 'App' });
    expect(site.appEdits.sec_1).toEqual(['heading']);
  });

  it('both changed since the base: a conflict, the app value kept', () => {
    const site = siteWith({ heading: 'App' }, { edited: ['heading'], base: { heading: 'Base' } });
    const report = mergeDraft(site, push({ heading: 'Pushed' }), []);
    expect(report.keptFields).toEqual([{ key: 'home/hero', field: 'heading', appValue: 'App', pushedValue: 'Pushed' }]);
    expect(hero(site).content).toEqual({ heading: 'App' });
  });

  it('an app "edit" back to the base value is no change: the push wins and the edit mark goes', () => {
    const site = siteWith({ heading: 'Base' }, { edited: ['heading'], base: { heading: 'Base' } });
    mergeDraft(site, push({ heading: 'Pushed' }), []);
    expect(hero(site).content).toEqual({ heading: 'Pushed' });
    expect(site.appEdits.sec_1).toEqual([]);
  });

  it('a push of the value the app already holds is no conflict, and the edit is merged away', () => {
    const site = siteWith({ heading: 'Same' }, { edited: ['heading'] });
    const report = mergeDraft(site, push({ heading: 'Same' }), []);
    expect(report.keptFields).toEqual([]);
    expect(site.appEdits.sec_1).toEqual([]);
  });

  it('only the fields a push names are merged; other app edits stay marked', () => {
    const site = siteWith({ heading: 'H', subheading: 'App sub' }, { edited: ['subheading'], base: { heading: 'H', subheading: 'Base sub' } });
    mergeDraft(site, push({ heading: 'H2' }), []);
    expect(hero(site).content).toEqual({ heading: 'H2', subheading: 'App sub' });
    expect(site.appEdits.sec_1).toEqual(['subheading']);
    // The base keeps what earlier pushes said of fields this push did not name.
    expect(site.syncBases).toEqual({ sec_1: { heading: 'H2', subheading: 'Base sub' } });
  });
});

describe('mergeDraft rule:import-merge-force-keys', () => {
  it('the field form <page>/<section>#<field> makes the pushed value win over an app edit', () => {
    const site = siteWith({ heading: 'App' }, { edited: ['heading'], base: { heading: 'Base' } });
    const report = mergeDraft(site, push({ heading: 'Pushed' }), ['home/hero#heading']);
    expect(report.keptFields).toEqual([]);
    expect(hero(site).content).toEqual({ heading: 'Pushed' });
    expect(site.appEdits.sec_1).toEqual([]);
  });

  it('the whole-section form replaces the content whole, clears its app edits and starts its base afresh', () => {
    const site = siteWith({ heading: 'App', subheading: 'Gone' }, { edited: ['heading', 'subheading'], base: { heading: 'Base', buttonLabel: 'Old base' } });
    const report = mergeDraft(site, push({ heading: 'Pushed' }), ['home/hero']);
    expect(report).toEqual({ inserted: [], updated: ['home/hero'], keptFields: [] });
    expect(hero(site).content).toEqual({ heading: 'Pushed' });
    expect(site.appEdits.sec_1).toEqual([]);
    expect(site.syncBases).toEqual({ sec_1: { heading: 'Pushed' } });
  });

  it('a section whose type changed is left alone and reported, unless its whole key is forced', () => {
    const site = siteWith({ heading: 'Hi' });
    const kept = mergeDraft(site, [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'text', content: { body: 'Now text' } }] }] as unknown as PortablePage[], []);
    expect(kept).toEqual({ inserted: [], updated: [], keptFields: [{ key: 'home/hero', field: '(type)', appValue: 'hero', pushedValue: 'text' }] });
    expect(hero(site)).toMatchObject({ type: 'hero', content: { heading: 'Hi' }, rev: 4 });
    const forced = mergeDraft(site, [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: 'text', content: { body: 'Now text' } }] }] as unknown as PortablePage[], ['home/hero']);
    expect(forced.updated).toEqual(['home/hero']);
    expect(hero(site)).toMatchObject({ type: 'text', content: { body: 'Now text' }, rev: 5 });
  });
});

describe('mergeDraft: new pages, new sections, blocks', () => {
  it('a new section is inserted on its page and a new page is created, each remembered as base', () => {
    const site = siteWith({ heading: 'Hi' });
    const report = mergeDraft(site, [
      { key: 'home', title: 'Home', sections: [{ externalKey: 'home/intro', type: 'text', content: { body: 'Intro' } }] },
      { key: 'about', title: 'About', sections: [{ externalKey: 'about/story', type: 'text', content: { body: 'Story' } }] },
    ] as unknown as PortablePage[], []);
    expect(report).toEqual({ inserted: ['home/intro', 'about/story'], updated: [], keptFields: [] });
    expect(site.draft.pages.map((p) => p.key)).toEqual(['home', 'about']);
    expect(site.draft.pages[0]!.sections.map((s) => s.key)).toEqual(['hero', 'intro']);
    const story = site.draft.pages[1]!.sections[0]!;
    expect(story).toMatchObject({ key: 'story', content: { body: 'Story' }, rev: 0 });
    expect(site.syncBases![story.sectionId]).toEqual({ body: 'Story' });
  });

  it('rule:portable-site-blocks-carried — pushed blocks replace the section\'s; a push without blocks keeps them', () => {
    const own = [{ key: 'b0', type: 'text', content: { body: 'Own' } }];
    const site = siteWith({ heading: 'Hi' }, { blocks: own });
    mergeDraft(site, push({ heading: 'Hi' }), []);
    expect(hero(site).blocks).toEqual(own);
    const pushedBlocks = [{ key: 'b1', type: 'text', content: { body: 'Pushed' } }];
    mergeDraft(site, push({ heading: 'Hi' }, { blocks: pushedBlocks }), []);
    expect(hero(site).blocks).toEqual(pushedBlocks);
    expect(hero(site).blocks).not.toBe(pushedBlocks);
  });
});
