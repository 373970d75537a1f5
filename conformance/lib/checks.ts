// Generic checks applied to every tool call the suite makes, schemathesis-style, each with a name a failure
// report can cite: not_a_server_error, envelope_conformance, response_schema_conformance, error_code_known.
import { compileToolValidators, sharedAjv, SPEC_BASE } from '../../spec/index.js';

export interface ToolCallRecord {
  tool: string;
  httpStatus?: number;
  jsonRpcError?: { code: number; message: string };
  result?: { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
}

export class CheckFailure extends Error {
  constructor(readonly check: string, detail: string) {
    super(`check ${check} failed: ${detail}`);
  }
}

const ajv = sharedAjv();
const envelope = ajv.getSchema(`${SPEC_BASE}schemas/tool-result.schema.json`)!;
const validators = compileToolValidators();
const codes = new Set((ajv.getSchema(`${SPEC_BASE}schemas/error.schema.json#/$defs/ErrorCode`)!.schema as { enum: string[] }).enum);

export function envelopeOf(record: ToolCallRecord): { ok: boolean; data?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } } {
  const structured = record.result?.structuredContent;
  if (structured) return structured as never;
  const text = record.result?.content?.find((c) => c.type === 'text')?.text;
  return text ? JSON.parse(text) : (undefined as never);
}

export function runChecks(record: ToolCallRecord): void {
  if ((record.httpStatus ?? 200) >= 500) throw new CheckFailure('not_a_server_error', `${record.tool} answered HTTP ${record.httpStatus}`);
  if (record.jsonRpcError) throw new CheckFailure('not_a_server_error', `${record.tool} answered a JSON-RPC error ${record.jsonRpcError.code}: ${record.jsonRpcError.message}`);
  const env = envelopeOf(record);
  if (!envelope(env)) throw new CheckFailure('envelope_conformance', `${record.tool}: ${ajv.errorsText(envelope.errors)} in ${JSON.stringify(env).slice(0, 300)}`);
  const text = record.result?.content?.find((c) => c.type === 'text')?.text;
  if (text !== undefined && JSON.stringify(JSON.parse(text)) !== JSON.stringify(env)) {
    throw new CheckFailure('envelope_conformance', `${record.tool}: text content and structuredContent differ`);
  }
  if (Boolean(record.result?.isError) !== !env.ok) throw new CheckFailure('envelope_conformance', `${record.tool}: isError must be true exactly when ok is false`);
  if (env.ok) {
    const output = validators.get(record.tool)?.output;
    if (output && !output(env.data)) throw new CheckFailure('response_schema_conformance', `${record.tool}: ${ajv.errorsText(output.errors)}`);
  } else if (!codes.has(env.error!.code)) {
    throw new CheckFailure('error_code_known', `${record.tool}: unknown error code ${env.error!.code}`);
  }
}
