/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the confirm_pending_action tool.
 */
export interface ConfirmPendingActionTool {
  input: ConfirmPendingActionInput;
  output: ConfirmPendingActionOutput;
}
export interface ConfirmPendingActionInput {
  planId: string;
  websiteId?: string;
}
export interface ConfirmPendingActionOutput {
  planId: string;
  kind:
    | 'publish'
    | 'unpublish'
    | 'publish_product'
    | 'grant_access'
    | 'send_document'
    | 'create_company'
    | 'search_visibility';
  websiteId: string;
  effect: string;
  result: {};
}
