/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_draft_changes tool.
 */
export interface ListDraftChangesTool {
  input: ListDraftChangesInput;
  output: ListDraftChangesOutput;
}
export interface ListDraftChangesInput {
  websiteId?: string;
}
export interface ListDraftChangesOutput {
  siteRevision: number;
  /**
   * The revision that is live, or null while unpublished.
   */
  publishedRevision: number | null;
  hasUnpublishedChanges: boolean;
  /**
   * Draft changes after the published revision (all of them while unpublished), oldest first.
   */
  changes: {
    revision: number;
    at: string;
    /**
     * Machine-readable kind of change, e.g. section-text or page-created.
     */
    kind: string;
    /**
     * One PII-free line.
     */
    summary: string;
  }[];
}
