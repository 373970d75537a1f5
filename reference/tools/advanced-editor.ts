// Advanced editor tools (§4.3; content:write + the invite-only advanced-editor grant, checked by the gate in
// mcp/pipeline.ts): get_section_json, replace_section_content, set_section_layout.
import { DomainError } from '../domain/errors.js';
import { findSection, recordChange } from '../domain/site.js';
import { validateSectionContent } from '../domain/section-content.js';
import { defineTool } from './types.js';

const get_section_json = defineTool('get_section_json', ({ site, args }) => {
  const { page, section } = findSection(site, args.sectionId);
  return { sectionId: section.sectionId, externalKey: `${page.key}/${section.key}`, type: section.type, content: section.content, layout: section.layout, rev: section.rev };
});

/** Optimistic concurrency: the write happens only if clientRev is the current rev (rule replace-section-stale-rev-rejected). */
const replace_section_content = defineTool('replace_section_content', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const { section } = findSection(site, args.sectionId);
    if (args.clientRev !== section.rev) {
      throw new DomainError('stale_revision', `The section changed since you read it (your rev ${args.clientRev}, current ${section.rev}). Call get_section_json again and reapply your change.`, {
        currentRev: section.rev,
      });
    }
    // Same type as the section's own: the content is validated against that type's schema only.
    validateSectionContent(section.type, args.content);
    section.content = structuredClone(args.content);
    section.rev += 1;
    return { sectionId: section.sectionId, rev: section.rev, siteRevision: recordChange(site, now, 'section-replaced', `Content of a ${section.type} section replaced`) };
  });
  note('section content replaced');
  return result;
});

const set_section_layout = defineTool('set_section_layout', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    const { section } = findSection(site, args.sectionId);
    section.layout = { ...section.layout, ...args.layout };
    section.rev += 1;
    return { sectionId: section.sectionId, layout: section.layout, rev: section.rev, siteRevision: recordChange(site, now, 'section-layout', `Layout of a ${section.type} section changed`) };
  });
  note(`section layout set (${Object.keys(args.layout).join(', ')})`);
  return result;
});

export const advancedEditorHandlers = { get_section_json, replace_section_content, set_section_layout };
