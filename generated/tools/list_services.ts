/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_services tool.
 */
export interface ListServicesTool {
  input: ListServicesInput;
  output: ListServicesOutput;
}
export interface ListServicesInput {
  websiteId?: string;
}
export interface ListServicesOutput {
  services: {
    serviceId: string;
    name: string;
    description?: string;
    price?: {
      amount: number;
      currency: string;
    };
    durationMinutes?: number;
    status: 'draft' | 'public';
  }[];
}
