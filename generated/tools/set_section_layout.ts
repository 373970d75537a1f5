/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the set_section_layout tool.
 */
export interface SetSectionLayoutTool {
  input: SetSectionLayoutInput;
  output: SetSectionLayoutOutput;
}
export interface SetSectionLayoutInput {
  websiteId?: string;
  sectionId: string;
  layout: LayoutPatch;
}
/**
 * This interface was referenced by `Layout`'s JSON-Schema
 * via the `definition` "LayoutPatch".
 */
export interface LayoutPatch {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
}
export interface SetSectionLayoutOutput {
  sectionId: string;
  layout: Layout;
  /**
   * The section's new rev (it rises with every change to the section).
   */
  rev: number;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
/**
 * All layout tokens after the change.
 */
export interface Layout {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
}
