/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_contacts tool.
 */
export interface ListContactsTool {
  input: ListContactsInput;
  output: ListContactsOutput;
}
export interface ListContactsInput {
  websiteId?: string;
  status?: 'active' | 'archived';
  limit?: number;
  cursor?: string;
}
export interface ListContactsOutput {
  /**
   * Personal data of this site only, newest first.
   */
  items: Contact[];
  /**
   * Pass as cursor for the next page; null on the last page.
   */
  nextCursor: string | null;
}
export interface Contact {
  contactId: string;
  websiteId: string;
  status: 'active' | 'archived';
  handled: boolean;
  note: string | null;
  name?: string;
  /**
   * Never changed by any tool.
   */
  email?: string;
  phone?: string;
  createdAt?: string;
}
