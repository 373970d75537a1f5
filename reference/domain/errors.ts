// DomainError is the one error the server's own code throws on purpose: a stable code from
// spec/schemas/error.schema.json (rule error-codes), a message a person can act on, and details a program can act
// on. A tool call answers it in its envelope (mcp/pipeline.ts); an HTTP endpoint answers it with the status of
// its code (api/errors.ts, the one code → status table). Anything else thrown is a bug: internal_error.
import type { ErrorCode } from './vocabulary.js';
import type { ToolError } from '../../generated/schemas/error.js';

/** What a program acts on: spec/schemas/error.schema.json's details, as generated. */
export type ErrorDetails = NonNullable<ToolError['details']>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.code = code;
    this.details = details;
    this.retryable = code === 'rate_limited' || code === 'throttled';
  }

  toJSON() {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** The one not-found answer for a website: identical for a missing id and another tenant's (rule authz-cross-tenant-not-found). */
export function websiteNotFound(websiteId: string): DomainError {
  return new DomainError('not_found', `No website "${websiteId}" is reachable by this connection. Call list_sites for the ids you can use.`);
}

/** The one not-found answer for any record kind, identical for missing and foreign ids. */
export function recordNotFound(kind: string, id: string): DomainError {
  return new DomainError('not_found', `No ${kind} "${id}" exists on this website.`);
}
