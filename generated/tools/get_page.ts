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
      /**
       * Pass to update_section_text, move_section, set_section_hidden and the advanced-editor tools.
       */
      sectionId: string;
      /**
       * <page>/<section>: the key import_site merges by.
       */
      externalKey: string;
      /**
       * A section type of spec/schemas/section-content.schema.json.
       */
      type: string;
      hidden: boolean;
      rev: number;
      /**
       * 0-based position on the page.
       */
      position: number;
      /**
       * Plain-text fields of the section's type; address one with update_section_text (e.g. heading, items/0/title).
       */
      content: {};
    }[];
  };
}
