/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_brand tool.
 */
export interface GetBrandTool {
  input: GetBrandInput;
  output: GetBrandOutput;
}
export interface GetBrandInput {
  websiteId?: string;
}
export interface GetBrandOutput {
  businessName: string;
  /**
   * Hex colours (#rrggbb) of the theme.
   */
  colors: {
    primary: string;
    secondary: string;
    accent: string;
    background: string;
    text: string;
  };
  /**
   * Font families of headings and body text.
   */
  fonts: {
    heading: string;
    body: string;
  };
  style: string;
  /**
   * Library asset of the logo, or null.
   */
  logoAssetId: string | null;
}
