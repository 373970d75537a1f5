/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the prepare_search_visibility tool.
 */
export interface PrepareSearchVisibilityTool {
  input: PrepareSearchVisibilityInput;
  output: PrepareSearchVisibilityOutput;
}
export interface PrepareSearchVisibilityInput {
  websiteId?: string;
  visible: boolean;
}
/**
 * What an agent host shows the owner before approval. Carries nothing secret.
 */
export interface PrepareSearchVisibilityOutput {
  planId: string;
  kind:
    | 'publish'
    | 'unpublish'
    | 'publish_product'
    | 'grant_access'
    | 'send_document'
    | 'create_company'
    | 'search_visibility';
  websiteId: string;
  websiteName?: string;
  /**
   * What will happen, in plain language.
   */
  summary: string;
  pinned?: {
    siteRevision?: number;
    productRevision?: number;
    documentFingerprint?: string;
  };
  expiresAt: string;
  /**
   * The app page where a signed-in owner approves this plan.
   */
  approvalUrl: string;
  /**
   * What the caller does after approval.
   */
  next?: string;
}
