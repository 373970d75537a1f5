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
        status?: 'no_show';
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
