/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

export type CrmUpdateInput =
  | {
      websiteId?: string;
      recordType: 'lead';
      recordId: string;
      changes: {
        status?: 'new' | 'contacted' | 'qualified' | 'won' | 'lost';
        handled?: boolean;
        note?: string | null;
        followUpAt?: string | null;
      };
    }
  | {
      websiteId?: string;
      recordType: 'booking';
      recordId: string;
      changes: {
        /**
         * Only no_show is set by this tool; cancelled and completed are refused with not_available (they go through the reviewed rail in the app).
         */
        status?: 'no_show' | 'cancelled' | 'completed';
        handled?: boolean;
        note?: string | null;
      };
    }
  | {
      websiteId?: string;
      recordType: 'contact';
      recordId: string;
      changes: {
        status?: 'active' | 'archived';
        handled?: boolean;
        note?: string | null;
      };
    };

/**
 * Input and output (data of a successful result) of the crm_update tool.
 */
export interface CrmUpdateTool {
  input: CrmUpdateInput;
  output: CrmUpdateOutput;
}
export interface CrmUpdateOutput {
  recordType: 'lead' | 'booking' | 'contact';
  recordId: string;
  /**
   * Names of the fields written; activity records these names, never the values.
   */
  changedFields: ('status' | 'handled' | 'note' | 'followUpAt')[];
}
