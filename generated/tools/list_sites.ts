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
  /**
   * One site on a website-reach connection; every reachable site of the workspace on a workspace one.
   */
  sites: {
    /**
     * Pass as websiteId to the other tools.
     */
    websiteId: string;
    name: string;
    businessName: string;
    status: 'unpublished' | 'published';
    /**
     * The connection creator's live role on the site.
     */
    role: 'owner' | 'editor' | 'viewer';
  }[];
}
