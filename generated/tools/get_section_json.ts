/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_section_json tool.
 */
export interface GetSectionJsonTool {
  input: GetSectionJsonInput;
  output: GetSectionJsonOutput;
}
export interface GetSectionJsonInput {
  websiteId?: string;
  sectionId: string;
}
export interface GetSectionJsonOutput {
  sectionId: string;
  externalKey: string;
  type: string;
  /**
   * The section's full draft content, valid against its type's schema.
   */
  content: {};
  layout: Layout;
  /**
   * Pass as clientRev to replace_section_content.
   */
  rev: number;
}
/**
 * Current layout tokens.
 */
export interface Layout {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
}
