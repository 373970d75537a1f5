/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Every tool answers this envelope, as structuredContent and as the JSON text of its single text content item.
 */
export type ToolResult = ToolSuccess | ToolFailure;

export interface ToolSuccess {
  ok: true;
  /**
   * Shaped by the tool's outputSchema.
   */
  data: {
    [k: string]: unknown | undefined;
  };
}
export interface ToolFailure {
  ok: false;
  error: ToolError;
}
/**
 * The error of a failed tool call, and of a refused request to the server's other endpoints (pairing, app pages, fixtures). code is stable and machine-readable; message is for a person; details carries what a program needs to act. Codes are our decision (rule error-codes); conflict and pairing_capacity are answered by those endpoints only, never by a tool.
 */
export interface ToolError {
  /**
   * This interface was referenced by `ToolError`'s JSON-Schema
   * via the `definition` "ErrorCode".
   */
  code:
    | 'scope_denied'
    | 'access_denied'
    | 'area_disabled'
    | 'owner_only'
    | 'advanced_grant_missing'
    | 'website_required'
    | 'not_found'
    | 'validation_failed'
    | 'stale_revision'
    | 'review_required'
    | 'not_available'
    | 'plan_not_approved'
    | 'plan_declined'
    | 'plan_expired'
    | 'plan_used'
    | 'plan_wrong_caller'
    | 'plan_subject_changed'
    | 'plan_anchor_mismatch'
    | 'insufficient_credits'
    | 'ai_consent_missing'
    | 'over_cap'
    | 'site_limit_reached'
    | 'rate_limited'
    | 'throttled'
    | 'operation_failed'
    | 'not_implemented'
    | 'internal_error'
    | 'conflict'
    | 'pairing_capacity';
  message: string;
  retryable?: boolean;
  details?: {
    requiredScopes?: string[];
    grantedScopes?: string[];
    cause?: string;
    retryAfterSeconds?: number;
    limit?: number;
    windowSeconds?: number;
    currentRev?: number;
    planId?: string;
    tool?: string;
    /**
     * The tool to call instead.
     */
    use?: string;
    issues?: {
      path: string;
      message: string;
    }[];
  };
}
