/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the create_blog_post tool.
 */
export interface CreateBlogPostTool {
  input: CreateBlogPostInput;
  output: CreateBlogPostOutput;
}
export interface CreateBlogPostInput {
  websiteId?: string;
  title: string;
  body: string;
  excerpt?: string;
  slug?: string;
}
export interface CreateBlogPostOutput {
  pageId: string;
  slug: string;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
