/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_pages tool.
 */
export interface ListPagesTool {
  input: ListPagesInput;
  output: ListPagesOutput;
}
export interface ListPagesInput {
  websiteId?: string;
}
export interface ListPagesOutput {
  pages: {
    /**
     * Pass to get_page, update_page_seo and add_section.
     */
    pageId: string;
    slug: string;
    title: string;
    /**
     * post for blog posts (create_blog_post), page otherwise.
     */
    kind: 'page' | 'post';
    hidden: boolean;
    sectionCount: number;
  }[];
}
