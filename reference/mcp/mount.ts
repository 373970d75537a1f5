// /api/mcp: authenticate the bearer, then answer the JSON-RPC message in its protocol era. A message of the
// 2026-07-28 era (its params._meta names a protocol version; era-2026.ts) is answered there, by the same handlers
// and call path, without the SDK. In the 2025 era (initialize), a single plain tools/call (the message
// every agent sends most) is answered directly: the call path's envelope in the SDK's CallToolResult encoding,
// exactly the response the SDK would send, after the same header checks its transport makes. Everything else
// (initialize, lists, resources, prompts, notifications, batches, a call with _meta or a task, any header or
// message the SDK refuses) goes to the SDK's Streamable HTTP transport in stateless JSON mode, with a new
// transport and a new low-level Server per request (the SDK refuses to reuse a stateless transport).
// Why: through the SDK a read call cost about 385 µs of server CPU, most of it the per-request Server and
// transport, zod parsing the message three times (transport, request, result), and the web Request/Response
// objects; directly it costs what our own rules cost (`npm run bench -- mcp-throughput`, README "Benchmarks").
// reference/test/mcp-direct-path.test.ts checks that both paths answer the same bytes.
// On the SDK path the Server gets a shared schema validator instead of building its own Ajv, the tool list is
// built once, and a finished transport is left to the garbage collector instead of being closed (closing builds
// an McpError with a stack trace per request). The web-standard transport takes the body we already parsed; the
// Node wrapper would convert each request and response through Hono.
import type { Context } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateBearer } from '../auth/authenticate.js';
import { ALL_SCOPES } from '../domain/scopes.js';
import type { OAuthPort } from '../auth/oauth-identity.js';
import { buildMcpServer } from './server.js';
import { readJsonBody } from '../api/body.js';
import { DomainError } from '../domain/errors.js';
import { HTTP_STATUS } from '../api/errors.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS, ErrorCode, type JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { invalidParams, oversizedToolCall, plainToolCall } from './message-shape.js';
import { callTool, type CallPorts } from './pipeline.js';
import { callToolResponseText, toCallToolResult } from './envelope.js';
import { mayBeModern, serveModern } from './era-2026.js';

const MAX_BODY_BYTES = 6 * 1024 * 1024; // above the 5 MiB import cap, so over-cap imports get a tool error
/** The 401 challenge's scope parameter (RFC 6750 §3): every scope of spec/scopes.json, as scopes_supported lists them. */
const CHALLENGE_SCOPE = ALL_SCOPES.join(' ');


function jsonRpcError(ctx: Context, status: number, code: number, message: string, id: string | number | null = null): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id };
}

/**
 * The header checks of the SDK's transport for a POST (webStandardStreamableHttp.ts handlePostRequest): Accept
 * names both JSON and SSE, the body is JSON, and a protocol version, when sent, is one the SDK supports (an empty
 * one counts as absent, as the SDK path below passes it). Stateless: no session to check.
 */
function transportWouldAccept(ctx: Context): boolean {
  const accept = ctx.get('accept');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!isJsonContentType(ctx.get('content-type'))) return false;
  const version = ctx.get('mcp-protocol-version');
  return !version || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** What the MCP endpoint uses: the call path's ports, the OAuth edge for bearer tokens, the base URL it names. */
export interface McpPorts extends CallPorts {
  readonly oauth: OAuthPort;
  readonly baseUrl: string;
}

export function mcpHandler(ports: McpPorts) {
  return async (ctx: Context): Promise<void> => {
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone SSE stream and no sessions to delete.
      ctx.set('Allow', 'POST');
      return jsonRpcError(ctx, 405, -32000, 'Method not allowed: this endpoint is stateless; POST JSON-RPC messages.');
    }
    const principal = await authenticateBearer(ports.store, ctx.get('authorization') || undefined, () => ports.oauth());
    if (!principal) {
      // The scopes a client should ask for are every scope (rule oauth-challenge-scope-every-scope): what it may do is
      // what the owner leaves ticked at consent, and the consent page offers only the scopes asked for.
      ctx.set('WWW-Authenticate', `Bearer resource_metadata="${ports.baseUrl}/.well-known/oauth-protected-resource/api/mcp", scope="${CHALLENGE_SCOPE}"`);
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
    const caller = { workspaceId: principal.workspaceId, connectionId: principal.connectionId };
    if (mayBeModern(body, ctx.get('mcp-protocol-version')) && (await serveModern(ports, ctx, caller, body))) return;
    const malformed = invalidParams(body);
    if (malformed) return jsonRpcError(ctx, 200, -32602, malformed.message, malformed.id);
    // Arguments over the bounds are refused by the call path (an envelope, logged) before the SDK's own request
    // parsing walks them, which costs about a second per 500,000 keys (rule tool-arguments-bounded).
    const oversized = oversizedToolCall(body, ports.limits.toolArguments);
    if (oversized) {
      const envelope = await callTool(ports, caller, oversized.name, oversized.args);
      ctx.status = 200;
      ctx.body = { jsonrpc: '2.0', id: oversized.id, result: toCallToolResult(envelope) };
      return;
    }
    const direct = plainToolCall(body);
    if (direct && transportWouldAccept(ctx)) {
      let answer: string;
      try {
        answer = callToolResponseText(direct.id, await callTool(ports, caller, direct.name, direct.args));
      } catch (error) {
        // What the SDK answers for a handler that throws (callTool answers envelopes; this is a wiring bug).
        console.error('[site-mcp] tools/call failed outside the call path:', error);
        const failed: JSONRPCErrorResponse = { jsonrpc: '2.0', id: direct.id, error: { code: ErrorCode.InternalError, message: (error as Error).message ?? 'Internal error' } };
        answer = JSON.stringify(failed);
      }
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json');
      ctx.body = answer;
      return;
    }
    const server = buildMcpServer(ports);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      // Only what the transport reads: method and the negotiation headers (the body is passed parsed).
      const request = new Request(`${ports.baseUrl}/api/mcp`, {
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
