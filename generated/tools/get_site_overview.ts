/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_site_overview tool.
 */
export interface GetSiteOverviewTool {
  input: GetSiteOverviewInput;
  output: GetSiteOverviewOutput;
}
export interface GetSiteOverviewInput {
  websiteId?: string;
}
export interface GetSiteOverviewOutput {
  websiteId: string;
  name: string;
  businessName: string;
  status: 'unpublished' | 'published';
  /**
   * Draft revision; rises with every draft change. A publish plan pins it.
   */
  siteRevision: number;
  /**
   * The revision that is live, or null while unpublished.
   */
  publishedRevision: number | null;
  /**
   * The live address, or null while unpublished.
   */
  publicUrl: string | null;
  /**
   * Where the owner edits the site in the app.
   */
  editorUrl: string;
  pageCount: number;
  /**
   * Whether search engines may index the live site; changed only through prepare_search_visibility.
   */
  searchVisible: boolean;
  updatedAt: string;
}
