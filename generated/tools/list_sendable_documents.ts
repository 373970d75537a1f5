/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_sendable_documents tool.
 */
export interface ListSendableDocumentsTool {
  input: ListSendableDocumentsInput;
  output: ListSendableDocumentsOutput;
}
export interface ListSendableDocumentsInput {
  websiteId?: string;
}
export interface ListSendableDocumentsOutput {
  /**
   * Never-sent draft invoices and quotes only; no customer contact details.
   */
  documents: {
    /**
     * Pass to prepare_send_document.
     */
    documentId: string;
    kind: 'invoice' | 'quote';
    number: string;
    title: string;
    total: {
      amount: number;
      currency: string;
    };
    createdAt: string;
  }[];
}
