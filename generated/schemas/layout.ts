/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Bounded layout tokens of a section (rules layout-tokens-bounded, layout-token-values).
 */
export interface Layout {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  verticalPadding?: 'none' | 'small' | 'medium' | 'large';
  hideOnMobile?: boolean;
  hideOnDesktop?: boolean;
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
