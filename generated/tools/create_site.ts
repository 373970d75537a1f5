/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the create_site tool.
 */
export interface CreateSiteTool {
  input: CreateSiteInput;
  output: CreateSiteOutput;
}
export interface CreateSiteInput {
  businessName: string;
}
export interface CreateSiteOutput {
  /**
   * The new empty site; pass it as websiteId.
   */
  websiteId: string;
  /**
   * Where the owner edits the site in the app.
   */
  editorUrl: string;
  status: 'unpublished';
}
