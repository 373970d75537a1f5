/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the add_section tool.
 */
export interface AddSectionTool {
  input: AddSectionInput;
  output: AddSectionOutput;
}
export interface AddSectionInput {
  websiteId?: string;
  pageId: string;
  type: 'hero' | 'text' | 'image' | 'services' | 'gallery' | 'faq' | 'cta' | 'contact' | 'testimonials' | 'captured';
  content: {};
  position?: number;
}
export interface AddSectionOutput {
  sectionId: string;
  externalKey: string;
  /**
   * The section's new rev (it rises with every change to the section).
   */
  rev: number;
  position: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
