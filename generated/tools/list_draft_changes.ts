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
  publishedRevision: number | null;
  hasUnpublishedChanges: boolean;
  changes: {
    revision: number;
    at: string;
    kind: string;
    summary: string;
  }[];
}
