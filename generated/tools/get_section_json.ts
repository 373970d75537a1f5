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
  content: {};
  layout: Layout;
  rev: number;
}
/**
 * Bounded layout tokens of a section (rules layout-tokens-bounded, layout-token-values).
 */
export interface Layout {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
}
