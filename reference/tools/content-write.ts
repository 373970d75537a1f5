// content:write tools (§4.3): update_section_text, update_page_seo, add_section, move_section,
// set_section_hidden, create_page, create_blog_post. Each edits the draft only, in one transaction, bumps the
// site revision and records a draft change; the published snapshot is never touched (rule content-write-draft-only).
import { DomainError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Page, Site } from '../domain/model.js';
import { findPage, findSection, newSection, recordChange, uniqueSlug } from '../domain/site.js';
import { setSectionText, validateSectionContent } from '../domain/section-content.js';
import { defineTool } from './types.js';

const update_section_text = defineTool('update_section_text', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const { section } = findSection(site, args.sectionId);
    setSectionText(section, args.field, args.text);
    return { sectionId: section.sectionId, field: args.field, rev: section.rev, siteRevision: recordChange(site, now, 'section-text', `Text of a ${section.type} section changed`) };
  });
  note(`section text field "${args.field}" updated`);
  return result;
});

const update_page_seo = defineTool('update_page_seo', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const page = findPage(site, args.pageId);
    if (args.title !== undefined) page.seo.title = args.title;
    if (args.description !== undefined) page.seo.description = args.description;
    return { pageId: page.pageId, seo: page.seo, siteRevision: recordChange(site, now, 'page-seo', `SEO of page "${page.slug}" changed`) };
  });
  note(`page SEO updated (${['title', 'description'].filter((k) => k in args).join(', ')})`);
  return result;
});

const add_section = defineTool('add_section', async ({ args, write, note, now }) => {
  validateSectionContent(args.type, args.content);
  const result = await write((_ws, site) => {
    const page = findPage(site, args.pageId);
    const position = args.position ?? page.sections.length;
    if (position > page.sections.length) {
      throw new DomainError('validation_failed', `position ${position} is past the end of the page (${page.sections.length} sections).`, { issues: [{ path: '/position', message: `at most ${page.sections.length}` }] });
    }
    const section = newSection(page, args.type, structuredClone(args.content));
    page.sections.splice(position, 0, section);
    return {
      sectionId: section.sectionId,
      externalKey: `${page.key}/${section.key}`,
      rev: section.rev,
      position,
      siteRevision: recordChange(site, now, 'section-added', `A ${section.type} section was added to page "${page.slug}"`),
    };
  });
  note(`${args.type} section added`);
  return result;
});

const move_section = defineTool('move_section', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const { page, index } = findSection(site, args.sectionId);
    if (args.position >= page.sections.length) {
      throw new DomainError('validation_failed', `position ${args.position} is past the end of the page (${page.sections.length} sections).`, { issues: [{ path: '/position', message: `at most ${page.sections.length - 1}` }] });
    }
    page.sections.splice(args.position, 0, ...page.sections.splice(index, 1));
    return { sectionId: args.sectionId, pageId: page.pageId, position: args.position, siteRevision: recordChange(site, now, 'section-moved', `A section moved on page "${page.slug}"`) };
  });
  note('section moved');
  return result;
});

const set_section_hidden = defineTool('set_section_hidden', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const { section } = findSection(site, args.sectionId);
    section.hidden = args.hidden;
    section.rev += 1;
    return { sectionId: section.sectionId, hidden: section.hidden, rev: section.rev, siteRevision: recordChange(site, now, 'section-visibility', `A section was ${args.hidden ? 'hidden' : 'shown'}`) };
  });
  note(`section ${args.hidden ? 'hidden' : 'shown'}`);
  return result;
});

function addPage(site: Site, input: { title: string; slug?: string; kind: Page['kind'] }): Page {
  if (input.slug && site.draft.pages.some((p) => p.slug === input.slug)) {
    throw new DomainError('validation_failed', `A page with slug "${input.slug}" exists; choose another slug.`, { issues: [{ path: '/slug', message: 'already used on this site' }] });
  }
  const slug = input.slug ?? uniqueSlug(site, input.title);
  const page: Page = { pageId: newId('page'), key: slug, slug, title: input.title, kind: input.kind, hidden: false, seo: { title: input.title, description: '' }, sections: [] };
  site.draft.pages.push(page);
  return page;
}

const create_page = defineTool('create_page', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const page = addPage(site, { title: args.title, slug: args.slug, kind: 'page' });
    return { pageId: page.pageId, slug: page.slug, siteRevision: recordChange(site, now, 'page-created', `Page "${page.slug}" created`) };
  });
  note('page created');
  return result;
});

const create_blog_post = defineTool('create_blog_post', async ({ args, write, note, now }) => {
  const content = { heading: args.title, body: args.body };
  validateSectionContent('text', content);
  const result = await write((_ws, site) => {
    const page = addPage(site, { title: args.title, slug: args.slug, kind: 'post' });
    if (args.excerpt) page.seo.description = args.excerpt;
    page.sections.push(newSection(page, 'text', content, 'body'));
    return { pageId: page.pageId, slug: page.slug, siteRevision: recordChange(site, now, 'post-created', `Blog post "${page.slug}" created as a draft`) };
  });
  note('blog post created as draft');
  return result;
});

export const contentWriteHandlers = { update_section_text, update_page_seo, add_section, move_section, set_section_hidden, create_page, create_blog_post };
