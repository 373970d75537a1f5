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
  /**
   * The plan's own website (for create_company the anchor, which is never changed).
   */
  websiteId: string;
  /**
   * What was done, in plain language.
   */
  effect: string;
  /**
   * By kind: publish publishedRevision; unpublish status; publish_product productId, status; grant_access invitationId, level, status (never a link); send_document documentId, documentStatus; create_company companyId with the new company's plan, credits, websites count and whether a trial, a monthly credit reset or a payment-provider object exists; search_visibility searchVisible.
   */
  result: {
    publishedRevision?: number;
    status?: 'unpublished' | 'public' | 'pending';
    productId?: string;
    invitationId?: string;
    level?: 'editor' | 'viewer';
    documentId?: string;
    documentStatus?: 'sent';
    companyId?: string;
    searchVisible?: boolean;
    plan?: string;
    credits?: number;
    websites?: number;
    trial?: boolean;
    monthlyCreditReset?: boolean;
    paymentProviderObject?: boolean;
  };
}
