/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_page tool.
 */
export interface GetPageTool {
  input: GetPageInput;
  output: GetPageOutput;
}
export interface GetPageInput {
  websiteId?: string;
  pageId: string;
}
export interface GetPageOutput {
  page: {
    pageId: string;
    slug: string;
    title: string;
    kind: 'page' | 'post';
    seo: {
      title: string;
      description: string;
    };
    sections: {
      sectionId: string;
      externalKey: string;
      type: string;
      hidden: boolean;
      rev: number;
      position: number;
      content: {};
    }[];
  };
}
