// Generic checks applied to every tool call the suite makes, schemathesis-style, each with a name a failure
// report can cite:
//   not_a_server_error           no HTTP 5xx and no JSON-RPC error for a tools/call (rule never-a-server-error)
//   envelope_conformance         the result is the envelope of spec/schemas/tool-result.schema.json, as
//                                structuredContent and as the same JSON text, isError exactly when ok is false
//                                (rules tool-result-envelope, error-success-shape, error-failure-shape)
//   response_schema_conformance  ok data validates against the tool's outputSchema (rule tool-output-schema)
//   error_code_known             error.code is in spec/schemas/error.schema.json (rule error-codes)
// A failing check throws CheckFailure: the step fails with the check, the tool and the ajv errors.
import { compileToolValidators, sharedAjv, SPEC_BASE } from '../../spec/index.js';

export interface ToolCallRecord {
  tool: string;
  args?: Record<string, unknown>;
  /** Set when the server answered the tools/call POST with an HTTP error status instead of a result. */
  httpStatus?: number;
  httpError?: string;
  jsonRpcError?: { code: number; message: string };
  result?: { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
}

export const CHECKS = ['not_a_server_error', 'envelope_conformance', 'response_schema_conformance', 'error_code_known'] as const;
export type CheckName = (typeof CHECKS)[number];

export class CheckFailure extends Error {
  constructor(readonly check: CheckName, readonly tool: string, detail: string) {
    super(`check ${check} failed for ${tool}: ${detail}`);
    this.name = 'CheckFailure';
  }
}

const ajv = sharedAjv();
const envelope = ajv.getSchema(`${SPEC_BASE}schemas/tool-result.schema.json`)!;
const validators = compileToolValidators();
const codes = new Set((ajv.getSchema(`${SPEC_BASE}schemas/error.schema.json#/$defs/ErrorCode`)!.schema as { enum: string[] }).enum);

const textOf = (record: ToolCallRecord) => record.result?.content?.find((c) => c.type === 'text')?.text;
const clip = (value: unknown, n = 300) => {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s === undefined ? 'undefined' : s.length > n ? `${s.slice(0, n)}…` : s;
};

/** The envelope of a result: structuredContent, else the JSON of the first text item. */
export function envelopeOf(record: ToolCallRecord): { ok: boolean; data?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } } {
  const structured = record.result?.structuredContent;
  if (structured) return structured as never;
  const text = textOf(record);
  if (text === undefined) return undefined as never;
  try {
    return JSON.parse(text);
  } catch {
    return undefined as never;
  }
}

export function runChecks(record: ToolCallRecord): void {
  const { tool } = record;
  if (record.httpStatus !== undefined) {
    if (record.httpStatus >= 500) throw new CheckFailure('not_a_server_error', tool, `tools/call answered HTTP ${record.httpStatus}: ${clip(record.httpError)}`);
    // Tool failures travel in a 200 JSON-RPC result (rule error-codes); any other status is not an envelope.
    throw new CheckFailure('envelope_conformance', tool, `tools/call answered HTTP ${record.httpStatus} instead of a tool result: ${clip(record.httpError)}`);
  }
  if (record.jsonRpcError) {
    throw new CheckFailure('not_a_server_error', tool, `tools/call answered a JSON-RPC error ${record.jsonRpcError.code} (${clip(record.jsonRpcError.message)}) instead of an envelope`);
  }
  const env = envelopeOf(record);
  if (env === undefined) throw new CheckFailure('envelope_conformance', tool, `no structuredContent and no JSON text item in ${clip(record.result)}`);
  if (!envelope(env)) throw new CheckFailure('envelope_conformance', tool, `${ajv.errorsText(envelope.errors)} in ${clip(env)}`);
  const text = textOf(record);
  if (text === undefined) throw new CheckFailure('envelope_conformance', tool, 'the result carries no text content item with the envelope JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CheckFailure('envelope_conformance', tool, `the text content item is not JSON: ${clip(text)}`);
  }
  if (JSON.stringify(parsed) !== JSON.stringify(env)) throw new CheckFailure('envelope_conformance', tool, 'the text content item and structuredContent differ');
  if (Boolean(record.result?.isError) !== !env.ok) throw new CheckFailure('envelope_conformance', tool, `isError is ${record.result?.isError} but ok is ${env.ok}: isError must be true exactly when ok is false`);
  if (env.ok) {
    const output = validators.get(tool)?.output;
    if (output && !output(env.data)) throw new CheckFailure('response_schema_conformance', tool, `${ajv.errorsText(output.errors)} in ${clip(env.data)}`);
  } else if (!codes.has(env.error!.code)) {
    throw new CheckFailure('error_code_known', tool, `unknown error code ${JSON.stringify(env.error!.code)} (known: spec/schemas/error.schema.json)`);
  }
}
