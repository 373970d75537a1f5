// The one code → HTTP status table (rule error-codes: codes and statuses are our decision). Every endpoint that
// is not a tool call (a tool failure travels in a 200 JSON-RPC result) answers a DomainError with the status of its
// code: the pairing API, the app pages, OAuth consent, the MCP edge's body reader and the fixtures protocol.
import type { Context } from 'koa';
import type { DomainError } from '../domain/errors.js';
import type { ErrorCode } from '../domain/vocabulary.js';

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  scope_denied: 403,
  access_denied: 403,
  area_disabled: 403,
  owner_only: 403,
  advanced_grant_missing: 403,
  website_required: 400,
  not_found: 404,
  validation_failed: 400,
  stale_revision: 409,
  review_required: 403,
  not_available: 403,
  plan_not_approved: 409,
  plan_declined: 409,
  plan_expired: 409,
  plan_used: 409,
  plan_wrong_caller: 403,
  plan_subject_changed: 409,
  plan_anchor_mismatch: 409,
  insufficient_credits: 402,
  ai_consent_missing: 403,
  over_cap: 413,
  site_limit_reached: 403,
  rate_limited: 429,
  throttled: 429,
  operation_failed: 502,
  not_implemented: 501,
  internal_error: 500,
  conflict: 409,
  // The service is at capacity, not this client at fault (rule pairings-in-memory-capped).
  pairing_capacity: 503,
};

/** Answers a refused JSON request: its code's status, Retry-After when it says when, and { error: { code, message } }. */
export function answerError(ctx: Context, error: DomainError): void {
  ctx.status = HTTP_STATUS[error.code];
  const retryAfterSeconds = error.details?.retryAfterSeconds;
  if (retryAfterSeconds !== undefined) ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.body = { error: { code: error.code, message: error.message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) } };
}
