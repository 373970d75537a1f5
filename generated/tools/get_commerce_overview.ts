/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_commerce_overview tool.
 */
export interface GetCommerceOverviewTool {
  input: GetCommerceOverviewInput;
  output: GetCommerceOverviewOutput;
}
export interface GetCommerceOverviewInput {
  websiteId?: string;
}
export interface GetCommerceOverviewOutput {
  services: number;
  products: {
    draft: number;
    public: number;
  };
  openQuotes: number;
  draftInvoices: number;
  sentInvoices: number;
  bookings: number;
}
