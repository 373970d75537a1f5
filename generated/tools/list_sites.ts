/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_sites tool.
 */
export interface ListSitesTool {
  input: ListSitesInput;
  output: ListSitesOutput;
}
export interface ListSitesInput {}
export interface ListSitesOutput {
  sites: {
    websiteId: string;
    name: string;
    businessName: string;
    status: 'unpublished' | 'published';
    role: 'owner' | 'editor' | 'viewer';
  }[];
}
