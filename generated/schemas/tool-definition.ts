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
  /**
   * Which website the call acts on, so the call path knows which to resolve and authorize before the handler: website (its websiteId, resolved under the connection's reach, rule authz-cross-tenant-not-found); plan (its plan's own website; a websiteId only detects re-pointing, §2.6); anchor (its websiteId only names where the owner approves, rule plan-company-anchor-context-only); none (no website).
   */
  target: 'website' | 'plan' | 'anchor' | 'none';
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
