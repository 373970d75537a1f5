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
    /**
     * Pages a migration made (migrate_site_from_url): captured by visual capture, queued for it (counted in pagesAwaitingCapture), or typed. Absent on pages no migration made. Our choice (rule migrate-capture-status-listed).
     */
    capture?: 'captured' | 'queued' | 'typed';
  }[];
}
