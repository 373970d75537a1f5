// An MCP client for one connection: the SDK's Client over Streamable HTTP with a bearer token
// (`connectAs(url, token)` or `new McpConnection(url, token)`; it connects lazily on first use). Every tool call
// goes through the generic checks of checks.ts, so any scenario or property that calls a tool also checks the
// envelope, the output schema and the error vocabulary. `rawMcpPost` is for protocol-level checks (401s,
// malformed JSON-RPC) that the SDK would refuse to send.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type GetPromptResult, type ListPromptsResult, type ListResourcesResult, type ListToolsResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { envelopeOf, runChecks, type ToolCallRecord } from './checks.js';
import { recorded, recordedFetch } from './transcript.js';

export interface ToolErrorBody { code: string; message: string; retryable?: boolean; details?: Record<string, any> }
export interface Envelope {
  ok: boolean;
  data?: any;
  error?: ToolErrorBody;
  /** Set when a call of an unlisted tool was refused at the protocol level (a JSON-RPC client error) instead. */
  protocolError?: { code: number; message: string };
}
export interface ToolCallOutcome {
  /** The parsed `{ ok, data }` / `{ ok: false, error }` (structuredContent, else the JSON text item). */
  envelope: Envelope;
  /** What went over the wire: the raw result, or the HTTP status / JSON-RPC error instead of one. */
  record: ToolCallRecord;
}

/**
 * How long the kit waits for one answer of a target (--call-timeout, SITE_MCP_CALL_TIMEOUT_MS; 30 s): under
 * Cucumber's 60 s step timeout, so a target that never answers fails its step with a sentence that names the call.
 */
export const callTimeoutMs = () => Number(process.env.SITE_MCP_CALL_TIMEOUT_MS) || 30_000;
/** The most of one answer the kit reads (10 MiB): a target that answers more fails its step, the kit's memory stays bounded. */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/**
 * What a hostile, broken or lying target did instead of answering, in one sentence that names the call: no
 * answer in time, an answer over MAX_ANSWER_BYTES, bytes that are not JSON-RPC, a connection closed before an
 * answer. Never the raw bytes: they are escaped and cut.
 */
export class TargetFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetFailure';
    // The sentence is the whole report: where in the kit it was noticed helps nobody reading about their server.
    this.stack = `${this.name}: ${message}`;
  }
}

class AnswerTooLarge extends Error {}

/** Text a target sent, safe for a log: escaped (no control bytes, no terminal sequences) and cut. */
export function quoted(text: string, max = 80): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * fetch for the SDK's transport: each POST is bounded in time (callTimeoutMs) and in the bytes read of its answer
 * (MAX_ANSWER_BYTES). The standalone GET stream is left alone (it is meant to stay open).
 */
const guardedFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return fetch(input, init);
  const timeout = AbortSignal.timeout(callTimeoutMs());
  const response = await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  if (!response.body) return response;
  let read = 0;
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > MAX_ANSWER_BYTES) controller.error(new AnswerTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** guardedFetch, each exchange kept for the transcript of a failed step (transcript.ts). */
const recordedGuardedFetch = recorded(guardedFetch);

/** The one sentence for what went wrong with `call` when the error is the target's doing, or undefined. */
export function targetFailure(call: string, error: unknown): TargetFailure | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const name = (e as { name?: string }).name;
    const code = (e as { code?: unknown }).code;
    if (e instanceof AnswerTooLarge) return new TargetFailure(`\`${call}\` answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; the kit stopped reading`);
    if (name === 'TimeoutError' || (e instanceof McpError && code === ErrorCode.RequestTimeout)) return new TargetFailure(`\`${call}\` got no answer within ${callTimeoutMs() / 1000} s`);
    if (e instanceof SyntaxError) return new TargetFailure(`\`${call}\` answered bytes that are not JSON-RPC: ${quoted(e.message)}`);
    if (typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code)) return new TargetFailure(`\`${call}\`: the target closed the connection before answering (${code})`);
  }
  return undefined;
}

export class McpConnection {
  #client: Promise<Client> | undefined;
  /** `headers`: sent with every request besides the bearer token (e.g. a caller-supplied id the server must ignore). */
  constructor(readonly url: string, readonly token: string, readonly headers: Record<string, string> = {}) {}

  /** The connected SDK client (connects on first use; concurrent first calls share one connect). */
  client(): Promise<Client> {
    this.#client ??= (async () => {
      const client = new Client({ name: 'site-mcp-conformance', version: '0.1.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${this.url}/api/mcp`), { fetch: recordedGuardedFetch, requestInit: { headers: { ...this.headers, Authorization: `Bearer ${this.token}` } } });
      try {
        await client.connect(transport, { timeout: callTimeoutMs() });
      } catch (error) {
        throw targetFailure('initialize', error) ?? error;
      }
      return client;
    })();
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  /**
   * Calls a tool and runs the generic checks on the answer; a failing check throws a CheckFailure naming the
   * check and the tool. An HTTP error status or a JSON-RPC error instead of a result is recorded, not thrown
   * as-is, so the checks can name it (not_a_server_error, envelope_conformance).
   */
  async callTool(tool: string, args: Record<string, unknown> = {}): Promise<ToolCallOutcome> {
    const client = await this.client();
    const record: ToolCallRecord = { tool, args };
    try {
      record.result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: callTimeoutMs() })) as ToolCallRecord['result'];
    } catch (error) {
      const failure = targetFailure(`tools/call ${tool}`, error);
      if (failure) throw failure;
      if (error instanceof McpError) record.jsonRpcError = { code: error.code, message: error.message };
      else if (error instanceof StreamableHTTPError) {
        record.httpStatus = error.code ?? -1;
        record.httpError = error.message;
      } else throw error;
    }
    runChecks(record);
    // runChecks let a JSON-RPC client error through only for a tool the source does not list.
    const envelope: Envelope = record.jsonRpcError
      ? { ok: false, protocolError: record.jsonRpcError }
      : (envelopeOf(record) as Envelope);
    return { envelope, record };
  }

  async listTools(): Promise<ListToolsResult> {
    return (await this.client()).listTools();
  }

  async listResources(): Promise<ListResourcesResult> {
    return (await this.client()).listResources();
  }

  /** Reads a resource; `envelope` is its JSON text parsed (resources answer the same envelope as tools). */
  async readResource(uri: string): Promise<{ result: ReadResourceResult; envelope: Envelope | undefined }> {
    const result = await (await this.client()).readResource({ uri });
    const text = (result.contents[0] as { text?: string } | undefined)?.text;
    let envelope: Envelope | undefined;
    try {
      envelope = text === undefined ? undefined : (JSON.parse(text) as Envelope);
    } catch {
      envelope = undefined;
    }
    return { result, envelope };
  }

  async listPrompts(): Promise<ListPromptsResult> {
    return (await this.client()).listPrompts();
  }

  async getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return (await this.client()).getPrompt({ name, arguments: args });
  }

  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    await pending?.then((c) => c.close()).catch(() => undefined);
  }
}

/** A connected client for `token` at the server `url` (the base address, without /api/mcp). */
export async function connectAs(url: string, token: string): Promise<McpConnection> {
  const connection = new McpConnection(url, token);
  await connection.client();
  return connection;
}

export interface HttpAnswer { status: number; headers: Headers; text: string; json: unknown }

/** Reads any HTTP answer as status, headers, text and (when it parses) JSON. */
export async function readAnswer(res: Response): Promise<HttpAnswer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A raw POST of `body` to `url` (a full address), with the headers an MCP client would send plus `headers`. */
export async function rawPost(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return readAnswer(
    await recordedFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    }),
  );
}

/** A raw JSON-RPC POST to the MCP endpoint of the server at `url`, for protocol-level checks. */
export async function rawMcpPost(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return rawPost(`${url}/api/mcp`, body, headers);
}

/**
 * The JSON-RPC messages of an MCP HTTP answer, whether the server answered application/json or an SSE stream
 * (`data:` lines), so protocol checks work with either response mode.
 */
export function jsonRpcMessages(answer: HttpAnswer): unknown[] {
  if (answer.json !== undefined) return Array.isArray(answer.json) ? answer.json : [answer.json];
  const messages: unknown[] = [];
  for (const line of answer.text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      messages.push(JSON.parse(line.slice(5).trim()));
    } catch {
      // not JSON: ignored, the caller asserts on what it needs
    }
  }
  return messages;
}
