/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the update_section_text tool.
 */
export interface UpdateSectionTextTool {
  input: UpdateSectionTextInput;
  output: UpdateSectionTextOutput;
}
export interface UpdateSectionTextInput {
  websiteId?: string;
  sectionId: string;
  field: string;
  text: string;
}
export interface UpdateSectionTextOutput {
  sectionId: string;
  field: string;
  /**
   * The section's new rev (it rises with every change to the section).
   */
  rev: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
