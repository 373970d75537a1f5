/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the generate_image tool.
 */
export interface GenerateImageTool {
  input: GenerateImageInput;
  output: GenerateImageOutput;
}
export interface GenerateImageInput {
  websiteId?: string;
  prompt: string;
  aspect?: 'square' | 'landscape' | 'portrait';
}
export interface GenerateImageOutput {
  /**
   * The image in the site's library; place it with add_section or update_section_text (field imageAssetId).
   */
  assetId: string;
  url: string;
  creditsSpent: number;
  /**
   * Workspace credit balance after the charge.
   */
  creditsRemaining: number;
}
