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
  siteRevision: number;
  publishedRevision: number | null;
  publicUrl: string | null;
  editorUrl: string;
  pageCount: number;
  searchVisible: boolean;
  updatedAt: string;
}
