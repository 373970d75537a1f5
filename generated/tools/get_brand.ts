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
  colors: {
    primary: string;
    secondary: string;
    accent: string;
    background: string;
    text: string;
  };
  fonts: {
    heading: string;
    body: string;
  };
  style: string;
  logoAssetId: string | null;
}
