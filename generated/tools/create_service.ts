/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the create_service tool.
 */
export interface CreateServiceTool {
  input: CreateServiceInput;
  output: CreateServiceOutput;
}
export interface CreateServiceInput {
  websiteId?: string;
  name: string;
  description?: string;
  price?: {
    amount: number;
    currency: string;
  };
  durationMinutes?: number;
}
export interface CreateServiceOutput {
  serviceId: string;
  name: string;
  description?: string;
  price?: {
    amount: number;
    currency: string;
  };
  durationMinutes?: number;
  status: 'draft' | 'public';
}
