/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the create_product tool.
 */
export interface CreateProductTool {
  input: CreateProductInput;
  output: CreateProductOutput;
}
export interface CreateProductInput {
  websiteId?: string;
  name: string;
  description?: string;
  price: {
    amount: number;
    currency: string;
  };
}
export interface CreateProductOutput {
  productId: string;
  name: string;
  description?: string;
  /**
   * draft until a prepare_publish_product plan is approved and confirmed.
   */
  status: 'draft' | 'public';
  /**
   * Product revision; a publish plan pins it.
   */
  revision: number;
  price: {
    amount: number;
    currency: string;
  };
}
