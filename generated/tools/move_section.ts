/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the move_section tool.
 */
export interface MoveSectionTool {
  input: MoveSectionInput;
  output: MoveSectionOutput;
}
export interface MoveSectionInput {
  websiteId?: string;
  sectionId: string;
  position: number;
}
export interface MoveSectionOutput {
  sectionId: string;
  pageId: string;
  position: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
