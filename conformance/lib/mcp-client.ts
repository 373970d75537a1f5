// An MCP client for one connection: the SDK's Client over Streamable HTTP with a bearer token
// (`connectAs(url, token)` or `new McpConnection(url, token)`; it connects lazily on first use). Every tool call
// goes through the generic checks of checks.ts, so any scenario or property that calls a tool also checks the
// envelope, the output schema and the error vocabulary. `rawMcpPost` is for protocol-level checks (401s,
// malformed JSON-RPC) that the SDK would refuse to send.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type GetPromptResult, type ListPromptsResult, type ListResourcesResult, type ListToolsResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { envelopeOf, runChecks, type ToolCallRecord } from './checks.js';

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

export class McpConnection {
  #client: Promise<Client> | undefined;
  /** `headers`: sent with every request besides the bearer token (e.g. a caller-supplied id the server must ignore). */
  constructor(readonly url: string, readonly token: string, readonly headers: Record<string, string> = {}) {}

  /** The connected SDK client (connects on first use; concurrent first calls share one connect). */
  client(): Promise<Client> {
    this.#client ??= (async () => {
      const client = new Client({ name: 'site-mcp-conformance', version: '0.1.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${this.url}/api/mcp`), { requestInit: { headers: { ...this.headers, Authorization: `Bearer ${this.token}` } } });
      await client.connect(transport);
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
      record.result = (await client.callTool({ name: tool, arguments: args })) as ToolCallRecord['result'];
    } catch (error) {
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
    await fetch(url, {
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
