/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_products tool.
 */
export interface ListProductsTool {
  input: ListProductsInput;
  output: ListProductsOutput;
}
export interface ListProductsInput {
  websiteId?: string;
}
export interface ListProductsOutput {
  products: {
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
  }[];
}
