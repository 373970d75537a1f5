// The 2026-07-28 protocol era at /api/mcp: no initialize and no session; every request names its protocol version
// and the client's capabilities in params._meta, server/discover says what the server is, every result carries
// resultType and the server's identity in _meta, list and read results carry cache hints, and a Streamable HTTP
// POST mirrors its method and name in the Mcp-Method and Mcp-Name headers. Only this wire is the era's own: a
// request is answered by the same handlers as in the 2025 era (methods.ts), and a tool call goes down the same
// call path (pipeline.ts), directly, without a per-request SDK Server (the direct path's speed, mount.ts).
//
// Which era a message belongs to is the SDK v2's own body-primary classifier (classifyInboundRequest of
// @modelcontextprotocol/server: a message whose params._meta names a protocol version, or whose
// MCP-Protocol-Version header names a 2026+ revision, is modern; everything else is left to the 2025 path as it
// was), so the two eras split exactly where the SDK's dual-era handler splits them. Its ladder rejections (a
// malformed envelope, a header that disagrees with the body, a batch with a modern message) are answered as the SDK
// answers them. The SDK does not export the rest of its ladder, written here after it: the supported-revision gate
// (rule mcp-2026-unsupported-version), the standard-header presence and Mcp-Name check (rule
// mcp-2026-header-mismatch), the method registry, and the encoding of results (rules mcp-2026-result-type,
// mcp-2026-server-info, mcp-2026-cache-hints).
import type { Context } from 'koa';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { callTool, type CallPorts, type Principal } from './pipeline.js';
import { callToolResponseText } from './envelope.js';
import { invalidParams } from './message-shape.js';
import { CAPABILITIES, INSTRUCTIONS, METHODS, SERVER_INFO, isMethodName } from './methods.js';

export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Revision ids are ISO dates: every revision from this one on is of the 2026 era (SDK: isModernProtocolVersion). */
const FIRST_MODERN_VERSION = '2026-07-28';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

const HEADER_MISMATCH = -32020;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Decision mcp-2026-cache-hints: what a client may keep, and for how long. The catalogue (tools, prompts,
 * resources and their templates) and what server/discover says change only with a new version of this server and
 * are the same for every caller: five minutes, shared. A resource's contents are the caller's own live site data:
 * not to be kept, and never shared.
 */
export const CACHE_HINTS: Readonly<Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>> = {
  'server/discover': { ttlMs: 300_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/** The methods whose Mcp-Name header mirrors a field of params (SEP-2243), and that field. */
const NAME_FIELD: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const claimsModern = (message: unknown): boolean =>
  isPlainObject(message) && isPlainObject(message.params) && isPlainObject(message.params._meta) && PROTOCOL_VERSION_KEY in message.params._meta;

/**
 * Whether a message may be of the 2026 era: its params._meta names a protocol version, or the MCP-Protocol-Version
 * header names a 2026+ revision. A cheap test, so that a 2025-era message pays nothing for the other era.
 */
export function mayBeModern(body: unknown, versionHeader: string): boolean {
  if (versionHeader && versionHeader.trim() >= FIRST_MODERN_VERSION) return true;
  return Array.isArray(body) ? body.some(claimsModern) : claimsModern(body);
}

function answerError(ctx: Context, status: number, id: unknown, code: number, message: string, data?: unknown): void {
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
  ctx.body = JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data === undefined ? {} : { data }) } });
}

/** The 2026 wire of a result (SDK v2's encode contract): resultType, cache hints where cacheable, serverInfo in _meta. */
export function encodeResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const meta = isPlainObject(result._meta) ? result._meta : {};
  return { ...result, resultType: 'complete', ...CACHE_HINTS[method], _meta: { ...meta, [SERVER_INFO_KEY]: SERVER_INFO } };
}

/** What a tools/call result carries besides content, structuredContent and isError, serialized once. */
const CALL_RESULT_SUFFIX = `,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_KEY]: SERVER_INFO })}`;

function discover(): Record<string, unknown> {
  return { supportedVersions: [...MODERN_PROTOCOL_VERSIONS], capabilities: CAPABILITIES, instructions: INSTRUCTIONS };
}

/** The Mcp-Name header's value: as sent, or decoded from its `=?base64?…?=` form (SEP-2243); undefined if malformed. */
function decodeNameHeader(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!match) return value;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64') === match[1] ? text : undefined;
}

/**
 * Rule mcp-2026-header-mismatch, the half the SDK's classifier leaves to its HTTP entry: a request names its
 * protocol version and method in the MCP-Protocol-Version and Mcp-Method headers, and for a tools/call, prompts/get
 * or resources/read its name or uri in Mcp-Name. Why a header is missing or disagrees, or undefined.
 */
function headerProblem(ctx: Context, method: string, params: unknown): string | undefined {
  if (!ctx.get('mcp-protocol-version')) return 'the required MCP-Protocol-Version header is absent';
  if (!ctx.get('mcp-method')) return `the body names method ${method} but the required Mcp-Method header is absent`;
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method]! : undefined;
  if (!field) return undefined;
  const bodyValue = isPlainObject(params) && typeof params[field] === 'string' ? (params[field] as string) : undefined;
  const header = ctx.get('mcp-name').trim();
  if (!header) return bodyValue === undefined ? undefined : `the body carries params.${field}="${bodyValue}" but the required Mcp-Name header is absent`;
  const decoded = decodeNameHeader(header);
  if (decoded === undefined) return 'the Mcp-Name header carries an invalid Base64 value';
  if (bodyValue !== undefined && decoded !== bodyValue) return `the body carries params.${field}="${bodyValue}" but the Mcp-Name header names "${decoded}"`;
  return undefined;
}

/**
 * Only what the classifier reads of a message (jsonrpc, id, method, params._meta and the Mcp-Name source): its zod
 * guards would otherwise walk a tool's whole arguments, which the call path bounds first (rule
 * tool-arguments-bounded). A valid id (a string or a safe integer) is the same to it whatever its value: 0 here.
 */
function shallow(message: unknown): unknown {
  if (!isPlainObject(message)) return message;
  const id = typeof message.id === 'string' || Number.isSafeInteger(message.id) ? 0 : message.id;
  if (!isPlainObject(message.params)) return { ...message, ...('id' in message ? { id } : {}) };
  const { _meta, name, uri } = message.params;
  return { ...message, ...('id' in message ? { id } : {}), params: { _meta, ...(name === undefined ? {} : { name }), ...(uri === undefined ? {} : { uri }) } };
}

type Route = ReturnType<typeof classifyInboundRequest>;
/**
 * The classifier's zod guards cost about 100 µs a message, as much as the whole call path. Its outcome depends only
 * on the headers and the shallow message, which repeat from call to call (a client sends the same envelope every
 * time), so outcomes are kept by that text, a bounded number of small ones.
 */
const routes = new Map<string, Route>();
const MAX_ROUTES = 512;
const MAX_KEY_CHARACTERS = 2048;

function classify(ctx: Context, body: unknown): Route {
  const request = {
    httpMethod: 'POST',
    protocolVersionHeader: ctx.get('mcp-protocol-version') || undefined,
    mcpMethodHeader: ctx.get('mcp-method') || undefined,
    mcpNameHeader: ctx.get('mcp-name') || undefined,
    body: Array.isArray(body) ? body.map(shallow) : shallow(body),
  };
  const key = JSON.stringify(request);
  if (key.length > MAX_KEY_CHARACTERS) return classifyInboundRequest(request);
  let route = routes.get(key);
  if (!route) {
    if (routes.size >= MAX_ROUTES) routes.clear();
    route = classifyInboundRequest(request);
    routes.set(key, route);
  }
  return route;
}

/**
 * Answers a message of the 2026 era, or returns false for one the SDK's classifier leaves to the 2025 path.
 * `ctx` has been authenticated and its body read; the caller checked mayBeModern first.
 */
export async function serveModern(ports: CallPorts, ctx: Context, principal: Principal, body: unknown): Promise<boolean> {
  const route = classify(ctx, body);
  if (route.kind === 'legacy') return false;
  const id = isPlainObject(body) ? body.id : null;
  if (!isJsonContentType(ctx.get('content-type'))) {
    answerError(ctx, 415, null, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    return true;
  }
  if (route.kind === 'reject') {
    answerError(ctx, route.httpStatus, id, route.code, route.message, route.data);
    return true;
  }
  // Rule mcp-2026-unsupported-version: a revision this server does not speak is refused with the ones it does.
  const requested = route.classification.revision;
  if (requested === undefined || !(MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(requested)) {
    answerError(ctx, 400, id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested ?? 'unknown'}`, { supported: [...MODERN_PROTOCOL_VERSIONS], requested: requested ?? 'unknown' });
    return true;
  }
  if (route.messageKind === 'notification') {
    // Nothing to answer: this server keeps no per-client state a notification could change.
    ctx.status = 202;
    ctx.body = null;
    return true;
  }
  const { method } = route.message;
  const problem = headerProblem(ctx, method, (body as Record<string, unknown>).params);
  if (problem) {
    answerError(ctx, 400, id, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${problem}`);
    return true;
  }
  if (method !== 'server/discover' && !isMethodName(method)) {
    answerError(ctx, 404, id, -32601, `Method not found: ${method}`);
    return true;
  }
  const malformed = invalidParams(body);
  if (malformed) {
    answerError(ctx, 200, id, -32602, malformed.message);
    return true;
  }
  const fullParams = ((body as { params?: Record<string, unknown> }).params ?? {}) as Record<string, unknown>;
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  if (method === 'tools/call') {
    // The hot path: the envelope serialized once, as the 2025 era's direct path does (envelope.ts).
    const envelope = await callTool(ports, principal, fullParams.name as string, fullParams.arguments);
    ctx.body = callToolResponseText(id as string | number, envelope, CALL_RESULT_SUFFIX);
    return true;
  }
  try {
    const result = method === 'server/discover' ? discover() : ((await METHODS[method](ports, principal, fullParams)) as Record<string, unknown>);
    ctx.body = JSON.stringify({ jsonrpc: '2.0', id, result: encodeResult(method, result) });
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    if (typeof code === 'number' && Number.isInteger(code)) return (answerError(ctx, 200, id, code, message ?? 'Error', data), true);
    console.error(`[site-mcp] ${method} failed:`, error);
    answerError(ctx, 200, id, -32603, 'Internal error');
  }
  return true;
}
