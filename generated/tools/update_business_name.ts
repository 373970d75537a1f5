/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the update_business_name tool.
 */
export interface UpdateBusinessNameTool {
  input: UpdateBusinessNameInput;
  output: UpdateBusinessNameOutput;
}
export interface UpdateBusinessNameInput {
  websiteId?: string;
  businessName: string;
}
export interface UpdateBusinessNameOutput {
  websiteId: string;
  businessName: string;
  /**
   * Draft revision after this change; list_draft_changes reports it.
   */
  siteRevision: number;
}
