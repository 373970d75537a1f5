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
  assetId: string;
  url: string;
  creditsSpent: number;
  creditsRemaining: number;
}
