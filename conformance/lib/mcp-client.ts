// An MCP client for one connection: the SDK's Client over Streamable HTTP with a bearer token
// (`connectAs(url, token)` or `new McpConnection(url, token)`; it connects lazily on first use). Every tool call
// goes through the generic checks of checks.ts, so any scenario or property that calls a tool also checks the
// envelope, the output schema and the error vocabulary. `rawMcpPost` is for protocol-level checks (401s,
// malformed JSON-RPC) that the SDK would refuse to send.
//
// One connection speaks one MCP protocol era: 2025-11-25 through the 1.x SDK's Client (initialize
// first), 2026-07-28 through the SDK v2 Client pinned to that revision (server/discover, the version in each
// request's _meta, no session). Which one is the run's (SITE_MCP_PROTOCOL, set by cli.ts for each era it checks),
// so steps and properties never name an era; both go through guardedFetch (timeouts, byte cap, transcripts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as ClientV2, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type GetPromptResult, type ListPromptsResult, type ListResourcesResult, type ListToolsResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { envelopeOf, runChecks, type ToolCallRecord } from './checks.js';
import { recorded, recordedFetch } from './transcript.js';
import { AnswerTooLarge, boundedFetch, callTimeoutMs, MAX_ANSWER_BYTES, withCallTimeout } from './bounded-fetch.js';

/** The MCP protocol eras the kit speaks, oldest first (a revision id names each). */
export const PROTOCOL_ERAS = ['2025-11-25', '2026-07-28'] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];
export const isProtocolEra = (value: unknown): value is ProtocolEra => (PROTOCOL_ERAS as readonly unknown[]).includes(value);
/** The era this run's connections speak: SITE_MCP_PROTOCOL, else 2025-11-25 (the one era a target spoke before 2026-07-28). */
export const activeEra = (): ProtocolEra => (isProtocolEra(process.env.SITE_MCP_PROTOCOL) ? process.env.SITE_MCP_PROTOCOL : '2025-11-25');

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

// The deadline and byte cap of every request live with boundedFetch; steps import them from here with the client.
export { callTimeoutMs, withCallTimeout, MAX_ANSWER_BYTES };

/**
 * What a hostile, broken or lying target did instead of answering, in one sentence that names the call: no
 * answer in time, an answer over MAX_ANSWER_BYTES, bytes that are not JSON-RPC, a connection closed before an
 * answer. Never the raw bytes: they are escaped and cut.
 */
export class TargetFailure extends Error {
  /** `noAnswer`: the call got no answer in time, the one failure a step that waits out a target's budget explains. */
  constructor(message: string, readonly noAnswer = false) {
    super(message);
    this.name = 'TargetFailure';
    // The sentence is the whole report: where in the kit it was noticed helps nobody reading about their server.
    this.stack = `${this.name}: ${message}`;
  }
}

/** Text a target sent, safe for a log: escaped (no control bytes, no terminal sequences) and cut. */
export function quoted(text: string, max = 80): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * fetch for the SDK's transport: each POST is bounded (boundedFetch: in time, in the bytes read of its answer, and
 * sent again on a connection the target had closed). The standalone GET stream is left alone (it is meant to
 * stay open).
 */
const guardedFetch = (input: string | URL, init?: RequestInit): Promise<Response> => ((init?.method ?? 'GET').toUpperCase() !== 'POST' ? fetch(input, init) : boundedFetch(input, init));

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
    if (name === 'TimeoutError' || (e instanceof McpError && code === ErrorCode.RequestTimeout) || (e instanceof SdkError && code === SdkErrorCode.RequestTimeout)) return new TargetFailure(`\`${call}\` got no answer within ${callTimeoutMs() / 1000} s`, true);
    if (e instanceof SyntaxError) return new TargetFailure(`\`${call}\` answered bytes that are not JSON-RPC: ${quoted(e.message)}`);
    if (typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code)) return new TargetFailure(`\`${call}\`: the target closed the connection before answering (${code})`);
  }
  return undefined;
}

/**
 * What the kit asks of an SDK client, the same of the 1.x Client (2025 era) and the v2 Client (2026 era), in the
 * SDK's own call shapes, each request bounded by callTimeoutMs.
 */
export interface EraClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<ListToolsResult>;
  listResources(): Promise<ListResourcesResult>;
  readResource(params: { uri: string }): Promise<ReadResourceResult>;
  listPrompts(): Promise<ListPromptsResult>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<GetPromptResult>;
  /** The server's name and version (initialize's serverInfo, or server/discover's). */
  getServerVersion(): { name: string; version: string } | undefined;
  close(): Promise<void>;
}

/** The 1.x SDK's Client: initialize, then the 2025-11-25 exchange. */
async function connect2025(url: URL, headers: Record<string, string>): Promise<EraClient> {
  const client = new Client({ name: 'site-mcp-conformance', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: recordedGuardedFetch, requestInit: { headers } }), { timeout: callTimeoutMs() });
  // Read at each call, so a call inside withCallTimeout waits as long as it says.
  const timeout = () => ({ timeout: callTimeoutMs() });
  return {
    callTool: (params) => client.callTool(params, undefined, timeout()),
    listTools: () => client.listTools(undefined, timeout()),
    listResources: () => client.listResources(undefined, timeout()),
    readResource: (params) => client.readResource(params, timeout()),
    listPrompts: () => client.listPrompts(undefined, timeout()),
    getPrompt: (params) => client.getPrompt(params, timeout()),
    getServerVersion: () => client.getServerVersion(),
    close: () => client.close(),
  };
}

/**
 * The SDK v2 Client pinned to 2026-07-28: server/discover, then each request with the version in its _meta. Its
 * response cache is bypassed: the kit judges what the target answers now, not what a hint let it keep.
 */
async function connect2026(url: URL, headers: Record<string, string>): Promise<EraClient> {
  const client = new ClientV2({ name: 'site-mcp-conformance', version: '0.1.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransportV2(url, { fetch: recordedGuardedFetch, requestInit: { headers } }), { timeout: callTimeoutMs() } as never);
  const options = () => ({ timeout: callTimeoutMs(), cacheMode: 'bypass' as const });
  return {
    callTool: (params) => client.callTool(params, { timeout: callTimeoutMs() }),
    listTools: () => client.listTools(undefined, options()) as Promise<ListToolsResult>,
    listResources: () => client.listResources(undefined, options()) as Promise<ListResourcesResult>,
    readResource: (params) => client.readResource(params, options()) as Promise<ReadResourceResult>,
    listPrompts: () => client.listPrompts(undefined, options()) as Promise<ListPromptsResult>,
    getPrompt: (params) => client.getPrompt(params, { timeout: callTimeoutMs() }) as Promise<GetPromptResult>,
    getServerVersion: () => client.getServerVersion(),
    close: () => client.close(),
  };
}

/** A JSON-RPC error of either SDK as { code, message }, or undefined for anything else. */
function jsonRpcError(error: unknown): { code: number; message: string } | undefined {
  if (error instanceof McpError || error instanceof ProtocolError) return { code: error.code, message: error.message };
  return undefined;
}

/** An HTTP error status of either SDK's transport as { status, message }, or undefined for anything else. */
function httpError(error: unknown): { status: number; message: string } | undefined {
  if (error instanceof StreamableHTTPError) return { status: error.code ?? -1, message: error.message };
  if (error instanceof SdkHttpError) return { status: error.status, message: error.message };
  return undefined;
}

export class McpConnection {
  #client: Promise<EraClient> | undefined;
  /**
   * `headers`: sent with every request besides the bearer token (e.g. a caller-supplied id the server must ignore).
   * `era`: the protocol era it speaks, the run's unless named.
   */
  constructor(readonly url: string, readonly token: string, readonly headers: Record<string, string> = {}, readonly era: ProtocolEra = activeEra()) {}

  /** The connected SDK client (connects on first use; concurrent first calls share one connect). */
  client(): Promise<EraClient> {
    this.#client ??= (async () => {
      const connect = this.era === '2026-07-28' ? connect2026 : connect2025;
      try {
        return await connect(new URL(`${this.url}/api/mcp`), { ...this.headers, Authorization: `Bearer ${this.token}` });
      } catch (error) {
        throw targetFailure(this.era === '2026-07-28' ? 'server/discover' : 'initialize', error) ?? error;
      }
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
      record.result = (await client.callTool({ name: tool, arguments: args })) as ToolCallRecord['result'];
    } catch (error) {
      const failure = targetFailure(`tools/call ${tool}`, error);
      if (failure) throw failure;
      const rpc = jsonRpcError(error);
      const http = rpc ? undefined : httpError(error);
      if (rpc) record.jsonRpcError = rpc;
      else if (http) {
        record.httpStatus = http.status;
        record.httpError = http.message;
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

  /** Reads a resource expecting a refusal: the JSON-RPC error of either era's SDK as { code, message, data }, or undefined when it answered. */
  async readResourceError(uri: string): Promise<{ code: number; message: string; data?: unknown } | undefined> {
    try {
      await (await this.client()).readResource({ uri });
      return undefined;
    } catch (error) {
      const failure = targetFailure(`resources/read ${uri}`, error);
      if (failure) throw failure;
      if (error instanceof McpError || error instanceof ProtocolError) return { code: error.code, message: error.message, data: error.data };
      throw error;
    }
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
