/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_access tool.
 */
export interface ListAccessTool {
  input: ListAccessInput;
  output: ListAccessOutput;
}
export interface ListAccessInput {
  websiteId?: string;
}
export interface ListAccessOutput {
  members: {
    /**
     * Member id in this service; no contact details.
     */
    userId: string;
    name: string;
    role: 'owner' | 'editor' | 'viewer';
  }[];
  /**
   * Pending invitations. No invitation link or token is ever returned.
   */
  invitations: {
    invitationId: string;
    email: string;
    level: 'editor' | 'viewer';
    status: 'pending';
    createdAt: string;
  }[];
}
