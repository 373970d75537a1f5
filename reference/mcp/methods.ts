// The one set of MCP method handlers, shared by both protocol eras (architecture.md, "Per protocol era"): the
// 2025 era registers them on the SDK's Server (server.ts), the 2026-07-28 era dispatches to them directly
// (era-2026.ts). A handler takes the caller and the request's params (already checked by message-shape.ts) and
// answers the era-neutral result; each era's mount adds only its own wire (the 2026 era: resultType, cache hints,
// serverInfo in _meta). What the server is (name, capabilities, instructions) lives here too, for the same reason.
import { toolsListPayload } from '../../spec/index.js';
import { callTool, type CallPorts, type Principal } from './pipeline.js';
import { toCallToolResult } from './envelope.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, readResource } from './resources.js';

export const SERVER_INFO = { name: 'site-mcp-reference', version: '0.1.0' };

export const CAPABILITIES = { tools: { listChanged: false }, resources: {}, prompts: {} };

export const INSTRUCTIONS =
  'Tools of a website-building service, for the owner\'s own sites. Every tool answers { ok: true, data } or ' +
  '{ ok: false, error: { code, message, details } }. Start with list_sites and get_site_overview. On a ' +
  'workspace-wide connection pass websiteId. Risky actions (publish, unpublish, product publish, access, ' +
  'document send, company, search visibility) use prepare_* then the owner approves in the app, then ' +
  'confirm_pending_action. Write copy yourself; the service does not generate text.';

type Params = Record<string, unknown>;
export type MethodHandler = (ports: CallPorts, principal: Principal, params: Params) => unknown;

let toolsList: ReturnType<typeof toolsListPayload> | undefined;

/** MCP method → its handler. Both eras serve exactly these methods (plus each era's own handshake). */
export const METHODS = {
  // Built once per process (rule tools-list-size is measured on exactly this payload).
  'tools/list': () => (toolsList ??= toolsListPayload()),
  'tools/call': async (ports, principal, params) => toCallToolResult(await callTool(ports, principal, params.name as string, params.arguments)),
  'resources/list': () => listResources(),
  // MCP's resources capability covers resource templates too, and clients ask for them on connecting (the
  // Inspector's web UI shows "Method not found" as a failed request on every connect). §4.4 names four fixed
  // resources and no template, so the list is empty (rule resources-four).
  'resources/templates/list': () => ({ resourceTemplates: [] }),
  'resources/read': (ports, principal, params) => readResource(ports, principal, params.uri as string),
  'prompts/list': () => listPrompts(),
  'prompts/get': (ports, principal, params) => getPrompt(ports, principal, params.name as string, params.arguments as Record<string, string> | undefined),
} satisfies Record<string, MethodHandler>;

export type MethodName = keyof typeof METHODS;

export function isMethodName(method: string): method is MethodName {
  return Object.hasOwn(METHODS, method);
}
