/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the create_page tool.
 */
export interface CreatePageTool {
  input: CreatePageInput;
  output: CreatePageOutput;
}
export interface CreatePageInput {
  websiteId?: string;
  title: string;
  slug?: string;
}
export interface CreatePageOutput {
  pageId: string;
  slug: string;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
