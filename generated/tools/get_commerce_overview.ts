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
/**
 * Counts only: no customer, amount owed or contact detail.
 */
export interface GetCommerceOverviewOutput {
  services: number;
  products: {
    draft: number;
    public: number;
  };
  /**
   * Quotes not sent yet.
   */
  openQuotes: number;
  draftInvoices: number;
  sentInvoices: number;
  /**
   * Number of bookings; details need crm:read (list_bookings).
   */
  bookings: number;
}
