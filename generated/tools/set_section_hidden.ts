/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the set_section_hidden tool.
 */
export interface SetSectionHiddenTool {
  input: SetSectionHiddenInput;
  output: SetSectionHiddenOutput;
}
export interface SetSectionHiddenInput {
  websiteId?: string;
  sectionId: string;
  hidden: boolean;
}
export interface SetSectionHiddenOutput {
  sectionId: string;
  hidden: boolean;
  /**
   * The section's new rev (it rises with every change to the section).
   */
  rev: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
