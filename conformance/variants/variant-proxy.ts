// Correct variants of the reference (after modelcontextprotocol/conformance's example servers, mirrored): a
// loopback proxy in front of a reference server that changes only what the source leaves open (§7.4 "error
// codes and exact error message texts: not shown", §4.2 no output shapes beyond the named fields). Each variant
// is a correct implementation, so the suite must pass against it with zero failures: without a declaration
// (source checks only) and with the variant's own declaration (rule kit-judges-by-source).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadTools } from '../../spec/index.js';

export interface VariantOptions {
  /** Every error code becomes E_<CODE>, in tool results and in the activity the fixtures protocol reports. */
  renameCodes?: boolean;
  /** One extra property in every data and error object, and in every listed tool. */
  extraFields?: boolean;
  /** Error objects carry only code and message (no details, no retryable). */
  dropErrorDetails?: boolean;
  /** A call of a tool that does not exist gets the JSON-RPC error -32602 instead of an envelope. */
  unknownToolAsJsonRpcError?: boolean;
  /** Every `status` value in data is upper-cased (state and status names: not shown, §3, §2.5). */
  renameStatuses?: boolean;
  /** A prepare_* answer carries its plan id as `plan.id` instead of `planId` (output shapes: not shown, §4.2). */
  movePlanId?: boolean;
  /** BROKEN, not a correct variant: tools/list leaves this tool out although calls to it still work. */
  dropListedTool?: string;
  /** BROKEN, not a correct variant: the data of this tool's results lacks this field. */
  dropResultField?: { tool: string; field: string };
}

/** `value` with every string `status` property, at any depth, upper-cased. */
function upperStatuses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upperStatuses);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'status' && typeof v === 'string' ? v.toUpperCase() : upperStatuses(v)]));
}

export const renamedCode = (code: string) => `E_${code.toUpperCase()}`;

const catalogue = new Set(loadTools().map((t) => t.name));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type MessageOptions = VariantOptions & { dropDataField?: string; calledTool?: string };

function transformEnvelope(envelope: unknown, options: MessageOptions): unknown {
  if (!isObject(envelope)) return envelope;
  if (envelope.ok === true) {
    let data = options.renameStatuses ? upperStatuses(envelope.data) : envelope.data;
    if (options.dropDataField && isObject(data)) {
      const { [options.dropDataField]: _dropped, ...rest } = data;
      data = rest;
    }
    if (options.movePlanId && options.calledTool?.startsWith('prepare_') && isObject(data) && 'planId' in data) {
      const { planId, ...rest } = data;
      data = { ...rest, plan: { id: planId } };
    }
    if (options.extraFields && isObject(data)) data = { ...data, variantNote: 'extra field' };
    return { ...envelope, data };
  }
  if (!isObject(envelope.error)) return envelope;
  let error: Record<string, unknown> = { ...envelope.error };
  if (options.renameCodes && typeof error.code === 'string') error.code = renamedCode(error.code);
  if (options.dropErrorDetails) error = { code: error.code, message: error.message };
  if (options.extraFields) error.variantNote = 'extra field';
  return { ...envelope, error };
}

function transformMessage(message: unknown, options: MessageOptions): unknown {
  if (!isObject(message) || !isObject(message.result)) return message;
  const result = { ...message.result };
  if (Array.isArray(result.tools) && options.extraFields) result.tools = result.tools.map((t) => (isObject(t) ? { ...t, _meta: { variant: 'extra field' } } : t));
  if (Array.isArray(result.tools) && options.dropListedTool) result.tools = result.tools.filter((t) => !isObject(t) || t.name !== options.dropListedTool);
  if (isObject(result.structuredContent) || Array.isArray(result.content)) {
    const envelope = transformEnvelope(result.structuredContent, options);
    if (result.structuredContent !== undefined) result.structuredContent = envelope;
    if (Array.isArray(result.content)) {
      result.content = result.content.map((item: unknown) => {
        if (!isObject(item) || item.type !== 'text' || typeof item.text !== 'string') return item;
        try {
          return { ...item, text: JSON.stringify(transformEnvelope(JSON.parse(item.text), options)) };
        } catch {
          return item;
        }
      });
    }
  }
  // A resource read carries the same envelope in its contents (as the reference does): the variant renames there too.
  if (Array.isArray(result.contents)) {
    result.contents = result.contents.map((item: unknown) => {
      if (!isObject(item) || typeof item.text !== 'string') return item;
      try {
        return { ...item, text: JSON.stringify(transformEnvelope(JSON.parse(item.text), options)) };
      } catch {
        return item;
      }
    });
  }
  return { ...message, result };
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startVariantProxy(targetUrl: string, options: VariantOptions): Promise<{ url: string; stop(): Promise<void> }> {
  let ownUrl = '';
  // Addresses in answers name the proxy, as a real implementation's would name itself.
  const rebase = (text: string) => text.split(targetUrl).join(ownUrl);
  // And the proxy's addresses in requests name the target again, plain or URL-encoded (an OAuth resource
  // indicator, an authorization URL handed to the fixtures protocol), as the target knows only its own.
  const unrebase = (text: string) => text.split(ownUrl).join(targetUrl).split(encodeURIComponent(ownUrl)).join(encodeURIComponent(targetUrl));
  const forwardedBody = (body: Buffer, type = '') => (/json|x-www-form-urlencoded|^text\//.test(type) ? unrebase(body.toString('utf8')) : body);
  const server: Server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const path = req.url ?? '/';
      if (options.unknownToolAsJsonRpcError && path === '/api/mcp' && req.method === 'POST') {
        try {
          const message = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: string; params?: { name?: unknown } };
          if (message.method === 'tools/call' && typeof message.params?.name === 'string' && !catalogue.has(message.params.name) && req.headers.authorization) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, error: { code: -32602, message: `Unknown tool: ${message.params.name}` } }));
            return;
          }
        } catch {
          // not JSON: the target answers it
        }
      }
      // The tool a tools/call names, for options that break one tool's results.
      let calledTool: string | undefined;
      try {
        const request = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: unknown } };
        if (request.method === 'tools/call' && typeof request.params?.name === 'string') calledTool = request.params.name;
      } catch {
        // not a single JSON message
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
      const upstream = await fetch(`${targetUrl}${unrebase(path)}`, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : forwardedBody(body, req.headers['content-type']), redirect: 'manual' });
      let text = rebase(await upstream.text());
      const type = upstream.headers.get('content-type') ?? '';
      if (type.includes('application/json') && text) {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (path === '/api/mcp') {
            const forMessage = { ...options, calledTool, dropDataField: options.dropResultField?.tool === calledTool ? options.dropResultField?.field : undefined };
            text = JSON.stringify(Array.isArray(parsed) ? parsed.map((m) => transformMessage(m, forMessage)) : transformMessage(parsed, forMessage));
          }
          else if (options.renameCodes && /^\/test-fixtures\/v1\/connections\/[^/]+\/activity/.test(path) && isObject(parsed) && Array.isArray(parsed.entries)) {
            text = JSON.stringify({ ...parsed, entries: parsed.entries.map((e) => (isObject(e) && typeof e.code === 'string' ? { ...e, code: renamedCode(e.code) } : e)) });
          }
        } catch {
          // leave a body that is not JSON as it is
        }
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, key) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(key)) out[key] = rebase(value);
      });
      res.writeHead(upstream.status, out);
      res.end(text);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`variant proxy: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: ownUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
