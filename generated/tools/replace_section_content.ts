/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the replace_section_content tool.
 */
export interface ReplaceSectionContentTool {
  input: ReplaceSectionContentInput;
  output: ReplaceSectionContentOutput;
}
export interface ReplaceSectionContentInput {
  websiteId?: string;
  sectionId: string;
  clientRev: number;
  content: {};
}
export interface ReplaceSectionContentOutput {
  sectionId: string;
  /**
   * The section's new rev: the clientRev of a further replace.
   */
  rev: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
