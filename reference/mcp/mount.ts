// /api/mcp: authenticate the bearer, then hand the JSON-RPC message to the SDK's Streamable HTTP transport
// in stateless JSON mode, with a new transport and a new low-level Server per request (the SDK refuses to reuse
// a stateless transport). What made the SDK's stateless example slow is avoided: the Server gets a shared
// schema validator instead of building its own Ajv, the tool list is built once, and a finished transport is
// left to the garbage collector instead of being closed (closing builds an McpError with a stack trace per
// request, measured at ~7% of CPU; a pool of reconnected Servers had to close). The web-standard transport
// takes the body we already parsed; the Node wrapper would convert each request and response through Hono.
// Measured with `npm run bench -- mcp-throughput`.
import type { Context } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateBearer } from '../domain/authenticate.js';
import type { Runtime } from '../runtime.js';
import { buildMcpServer } from './server.js';
import { readJsonBody } from '../http/body.js';
import { DomainError } from '../domain/errors.js';
import { HTTP_STATUS } from '../http/errors.js';
import { invalidParams, oversizedToolCall } from './message-shape.js';
import { callTool } from './pipeline.js';
import { toCallToolResult } from './envelope.js';

const MAX_BODY_BYTES = 6 * 1024 * 1024; // above the 5 MiB import cap, so over-cap imports get a tool error


function jsonRpcError(ctx: Context, status: number, code: number, message: string, id: string | number | null = null): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id };
}

export function mcpHandler(rt: Runtime) {
  return async (ctx: Context): Promise<void> => {
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone SSE stream and no sessions to delete.
      ctx.set('Allow', 'POST');
      return jsonRpcError(ctx, 405, -32000, 'Method not allowed: this endpoint is stateless; POST JSON-RPC messages.');
    }
    const principal = await authenticateBearer(rt.store, ctx.get('authorization') || undefined, () => rt.oauth());
    if (!principal) {
      ctx.set('WWW-Authenticate', `Bearer resource_metadata="${rt.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`);
      return jsonRpcError(ctx, 401, -32001, 'Missing or invalid bearer token. Use an API token from Developers settings (it starts with smcp_live_).');
    }
    let body: unknown;
    try {
      body = await readJsonBody(ctx.req, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof DomainError) return jsonRpcError(ctx, HTTP_STATUS[error.code], -32700, error.message);
      throw error;
    }
    // JSON-RPC 2.0: an empty batch is an Invalid Request (the SDK would answer 202 with nothing).
    if (Array.isArray(body) && body.length === 0) return jsonRpcError(ctx, 400, -32600, 'Invalid Request: an empty batch.');
    const malformed = invalidParams(body);
    if (malformed) return jsonRpcError(ctx, 200, -32602, malformed.message, malformed.id);
    // Arguments over the bounds are refused by the call path (an envelope, logged) before the SDK's own request
    // parsing walks them, which costs about a second per 500,000 keys (rule tool-arguments-bounded).
    const oversized = oversizedToolCall(body, rt.limits.toolArguments);
    if (oversized) {
      const envelope = await callTool(rt, { workspaceId: principal.workspaceId, connectionId: principal.connectionId }, oversized.name, oversized.args);
      ctx.status = 200;
      ctx.body = { jsonrpc: '2.0', id: oversized.id, result: toCallToolResult(envelope) };
      return;
    }
    const server = buildMcpServer(rt);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      // Only what the transport reads: method and the negotiation headers (the body is passed parsed).
      const request = new Request(`${rt.baseUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          accept: ctx.get('accept'),
          'content-type': ctx.get('content-type'),
          ...(ctx.get('mcp-protocol-version') ? { 'mcp-protocol-version': ctx.get('mcp-protocol-version') } : {}),
        },
      });
      const response = await transport.handleRequest(request, {
        parsedBody: body,
        authInfo: {
          token: '',
          clientId: principal.connectionId,
          scopes: principal.scopes,
          extra: { principal: { workspaceId: principal.workspaceId, connectionId: principal.connectionId } },
        },
      });
      ctx.status = response.status;
      response.headers.forEach((value, key) => ctx.set(key, value));
      const text = await response.text();
      ctx.body = text || null;
      if (!text) ctx.status = response.status; // Koa resets the status for an empty body
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
  };
}
