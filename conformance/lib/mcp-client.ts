// An MCP client for one connection: the SDK's Client over Streamable HTTP with a bearer token. Every tool
// call goes through the generic checks.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { envelopeOf, runChecks, type ToolCallRecord } from './checks.js';

export interface Envelope { ok: boolean; data?: any; error?: { code: string; message: string; details?: Record<string, any> } }

export class McpConnection {
  #client: Client | undefined;
  constructor(readonly url: string, readonly token: string) {}

  async client(): Promise<Client> {
    if (!this.#client) {
      const client = new Client({ name: 'site-mcp-conformance', version: '0.1.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${this.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${this.token}` } } }));
      this.#client = client;
    }
    return this.#client;
  }

  async callTool(tool: string, args: Record<string, unknown> = {}): Promise<{ envelope: Envelope; record: ToolCallRecord }> {
    const client = await this.client();
    const record: ToolCallRecord = { tool };
    try {
      record.result = (await client.callTool({ name: tool, arguments: args })) as ToolCallRecord['result'];
    } catch (error) {
      if (error instanceof McpError) record.jsonRpcError = { code: error.code, message: error.message };
      else throw error;
    }
    runChecks(record);
    return { envelope: envelopeOf(record) as Envelope, record };
  }

  async close(): Promise<void> {
    await this.#client?.close().catch(() => undefined);
    this.#client = undefined;
  }
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

/** A raw JSON-RPC POST to the MCP endpoint, for protocol-level checks (401s, malformed messages). */
export async function rawMcpPost(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return readAnswer(
    await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    }),
  );
}
