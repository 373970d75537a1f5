/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the publish_site tool.
 */
export interface PublishSiteTool {
  input: PublishSiteInput;
  output: PublishSiteOutput;
}
export interface PublishSiteInput {
  websiteId?: string;
}
/**
 * Never produced: publish_site always fails with review_required.
 */
export interface PublishSiteOutput {}
