/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * One tool of the catalogue (spec/tools/<name>.json).
 */
export interface ToolDefinition {
  name: string;
  title: string;
  scopes: (
    | 'site:read'
    | 'content:write'
    | 'publish'
    | 'ai:generate'
    | 'crm:read'
    | 'crm:write'
    | 'settings:write'
    | 'domain:write'
    | 'domain:read'
    | 'access:write'
    | 'communications:write'
    | 'commerce:write'
    | 'workspace:write'
  )[];
  gates: ('owner-only' | 'advanced-editor-grant' | 'area:invoicing' | 'area:commerce' | 'area:crm' | 'area:bookings')[];
  planKind:
    | null
    | (
        | 'publish'
        | 'unpublish'
        | 'publish_product'
        | 'grant_access'
        | 'send_document'
        | 'create_company'
        | 'search_visibility'
      );
  annotations: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  since?: string;
  /**
   * @minItems 1
   */
  rules: [string, ...string[]];
  description: string;
  inputSchema: {
    type: 'object';
  };
  outputSchema: {};
}
