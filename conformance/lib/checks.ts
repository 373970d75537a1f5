// Generic checks applied to every tool call the suite makes: a registry of named checks (as schemathesis keeps
// its checks), each either
//   source    — follows from a sentence of the source; always runs, or
//   declared  — checks a choice the source leaves open; runs only when the target declared it
//               (conformance/lib/declaration.ts, rule kit-judges-by-source).
//
//   not_a_server_error           source   no HTTP 5xx, no JSON-RPC error for a call of a listed tool (§7,
//                                         rule never-a-server-error)
//   envelope_conformance         source   the result carries { ok: true, data } or { ok: false, error }, any
//                                         extra properties allowed (§4.1, §7.1–7.2, rule tool-result-envelope)
//   mcp_encoding                 declared structuredContent and the JSON text item carry the same envelope and
//                                         isError is true exactly when ok is false (mcpEncoding)
//   error_object_conformance     declared the error object follows spec/schemas/error.schema.json (errorObject)
//   response_schema_conformance  declared data validates against the tool's outputSchema (outputSchemas)
//   error_code_known             declared error.code is one the target declared (errorCodes)
// A failing check throws CheckFailure: the step fails with the check, the tool and the reason.
import { loadTools, sharedAjv, SPEC_BASE, toolValidator } from '../../spec/index.js';
import { activeDeclaration, declaredErrorCodes, everyErrorKindDeclared, type Declaration } from './declaration.js';

export interface ToolCallRecord {
  tool: string;
  args?: Record<string, unknown>;
  /** Set when the server answered the tools/call POST with an HTTP error status instead of a result. */
  httpStatus?: number;
  httpError?: string;
  jsonRpcError?: { code: number; message: string };
  result?: { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
}

type Envelope = { ok: boolean; data?: unknown; error?: { code?: unknown; message?: unknown; details?: Record<string, unknown> } };

interface Check {
  name: string;
  kind: 'source' | 'declared';
  /** For declared checks: the declaration field that switches it on. */
  needs?: keyof Declaration;
  run(record: ToolCallRecord, envelope: Envelope | undefined): void;
}

export class CheckFailure extends Error {
  constructor(readonly check: string, readonly tool: string, detail: string) {
    super(`check ${check} failed for ${tool}: ${detail}`);
    this.name = 'CheckFailure';
  }
}

// Validators are compiled when a check first needs them (Ajv keeps them): loading the steps, which the CLI's
// coordinator and every Cucumber worker do, compiles none, and a worker compiles only the output schemas of the
// tools its scenarios call.
const errorObject = () => sharedAjv().getSchema(`${SPEC_BASE}schemas/error.schema.json`)!;
const catalogue = new Set(loadTools().map((t) => t.name));
// JSON-RPC 2.0's client-side error codes, and MCP's -32002 (resource not found, for resources/read);
// -32603 (internal error) is a server error. The one list every check and step uses.
export const CLIENT_ERRORS = new Set([-32700, -32600, -32601, -32602, -32002]);

const textOf = (record: ToolCallRecord) => record.result?.content?.find((c) => c.type === 'text')?.text;
const clip = (value: unknown, n = 300) => {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s === undefined ? 'undefined' : s.length > n ? `${s.slice(0, n)}…` : s;
};
const parseJson = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).ok === 'boolean';

/** The envelope of a result: structuredContent if it is one, else the JSON of the first text item. */
export function envelopeOf(record: ToolCallRecord): Envelope | undefined {
  const structured = record.result?.structuredContent;
  if (isEnvelope(structured)) return structured;
  const parsed = parseJson(textOf(record));
  return isEnvelope(parsed) ? parsed : undefined;
}

/** A JSON-RPC client error for a tool the source does not list: allowed instead of an envelope (§4.3 names the tools). */
const unknownToolRefusedByProtocol = (record: ToolCallRecord) =>
  !catalogue.has(record.tool) && record.jsonRpcError !== undefined && CLIENT_ERRORS.has(record.jsonRpcError.code);

export const CHECKS: readonly Check[] = [
  {
    name: 'not_a_server_error',
    kind: 'source',
    run(record) {
      const { tool } = record;
      if (record.httpStatus !== undefined) {
        if (record.httpStatus >= 500) throw new CheckFailure('not_a_server_error', tool, `tools/call answered HTTP ${record.httpStatus}: ${clip(record.httpError)}`);
        throw new CheckFailure('envelope_conformance', tool, `tools/call answered HTTP ${record.httpStatus} instead of a tool result: ${clip(record.httpError)}`);
      }
      if (record.jsonRpcError && !unknownToolRefusedByProtocol(record)) {
        throw new CheckFailure('not_a_server_error', tool, `tools/call answered a JSON-RPC error ${record.jsonRpcError.code} (${clip(record.jsonRpcError.message)}) instead of an envelope`);
      }
    },
  },
  {
    name: 'envelope_conformance',
    kind: 'source',
    run(record, env) {
      if (unknownToolRefusedByProtocol(record)) return;
      if (!env) throw new CheckFailure('envelope_conformance', record.tool, `no { ok, … } envelope in structuredContent or a JSON text item: ${clip(record.result)}`);
      if (env.ok && !('data' in env)) throw new CheckFailure('envelope_conformance', record.tool, `ok is true but there is no data: ${clip(env)}`);
      if (!env.ok && (typeof env.error !== 'object' || env.error === null)) throw new CheckFailure('envelope_conformance', record.tool, `ok is false but there is no error object: ${clip(env)}`);
    },
  },
  {
    name: 'mcp_encoding',
    kind: 'declared',
    needs: 'mcpEncoding',
    run(record, env) {
      if (!env) return;
      const { tool } = record;
      if (!isEnvelope(record.result?.structuredContent)) throw new CheckFailure('mcp_encoding', tool, 'the envelope is not in structuredContent');
      const text = textOf(record);
      if (text === undefined) throw new CheckFailure('mcp_encoding', tool, 'the result carries no text content item with the envelope JSON');
      const parsed = parseJson(text);
      if (parsed === undefined) throw new CheckFailure('mcp_encoding', tool, `the text content item is not JSON: ${clip(text)}`);
      if (JSON.stringify(parsed) !== JSON.stringify(env)) throw new CheckFailure('mcp_encoding', tool, 'the text content item and structuredContent differ');
      if (Boolean(record.result?.isError) !== !env.ok) throw new CheckFailure('mcp_encoding', tool, `isError is ${record.result?.isError} but ok is ${env.ok}`);
    },
  },
  {
    name: 'error_object_conformance',
    kind: 'declared',
    needs: 'errorObject',
    run(record, env) {
      const validate = errorObject();
      if (env && !env.ok && !validate(env.error)) throw new CheckFailure('error_object_conformance', record.tool, `${sharedAjv().errorsText(validate.errors)} in ${clip(env.error)}`);
    },
  },
  {
    name: 'response_schema_conformance',
    kind: 'declared',
    needs: 'outputSchemas',
    run(record, env) {
      const output = env?.ok ? toolValidator(record.tool, 'output') : undefined;
      if (output && !output(env!.data)) throw new CheckFailure('response_schema_conformance', record.tool, `${sharedAjv().errorsText(output.errors)} in ${clip(env!.data)}`);
    },
  },
  {
    name: 'error_code_known',
    kind: 'declared',
    needs: 'errorCodes',
    run(record, env) {
      // Only a declaration that names a code for every kind the kit tells apart says which codes exist: a
      // partial errorCodes leaves the other kinds' codes open (spec/schemas/declaration.schema.json).
      const codes = everyErrorKindDeclared() ? declaredErrorCodes() : undefined;
      if (env && !env.ok && codes && !codes.has(String(env.error?.code))) {
        throw new CheckFailure('error_code_known', record.tool, `error code ${JSON.stringify(env.error?.code)} is not among the declared errorCodes`);
      }
    },
  },
];

/** The names of the checks this run makes: every source check, and the declared ones the target declared. */
export function activeChecks(declaration = activeDeclaration()): Check[] {
  return CHECKS.filter((c) => c.kind === 'source' || (declaration && c.needs && declaration[c.needs] !== undefined && declaration[c.needs] !== false));
}

export function runChecks(record: ToolCallRecord): void {
  const env = envelopeOf(record);
  for (const check of activeChecks()) check.run(record, env);
}
