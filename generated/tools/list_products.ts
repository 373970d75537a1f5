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
    status: 'draft' | 'public';
    revision: number;
    price: {
      amount: number;
      currency: string;
    };
  }[];
}
