/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

export type UpdatePageSeoInput = (
  | {
      title: unknown;
    }
  | {
      description: unknown;
    }
) & {
  websiteId?: string;
  pageId: string;
  title?: string;
  description?: string;
};

/**
 * Input and output (data of a successful result) of the update_page_seo tool.
 */
export interface UpdatePageSeoTool {
  input: UpdatePageSeoInput;
  output: UpdatePageSeoOutput;
}
export interface UpdatePageSeoOutput {
  pageId: string;
  seo: {
    title: string;
    description: string;
  };
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
