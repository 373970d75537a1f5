// The MCP server of the reference implementation: the low-level SDK Server with tools from spec/tools,
// resources from spec/resources.json and prompts from spec/prompts.json. The tools/list payload is built
// once from the spec (rule tools-list-size is measured on exactly this payload).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { toolsListPayload } from '../../spec/index.js';
import type { Runtime } from '../runtime.js';
import { callTool, type Principal } from './pipeline.js';
import { toCallToolResult } from './envelope.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, readResource } from './resources.js';

export const SERVER_INFO = { name: 'site-mcp-reference', version: '0.1.0' };

const INSTRUCTIONS =
  'Tools of a website-building service, for the owner\'s own sites. Every tool answers { ok: true, data } or ' +
  '{ ok: false, error: { code, message, details } }. Start with list_sites and get_site_overview. On a ' +
  'workspace-wide connection pass websiteId. Risky actions (publish, unpublish, product publish, access, ' +
  'document send, company, search visibility) use prepare_* then the owner approves in the app, then ' +
  'confirm_pending_action. Write copy yourself; the service does not generate text.';

export function principalOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): Principal {
  const principal = extra.authInfo?.extra?.principal as Principal | undefined;
  // The HTTP mount authenticates before the SDK sees a message; reaching here without one is a wiring bug.
  if (!principal) throw new McpError(ErrorCode.InternalError, 'unauthenticated request reached the MCP server');
  return principal;
}

// Built once per process: the SDK would otherwise construct an Ajv instance inside every Server.
const sharedValidator = new AjvJsonSchemaValidator();
let toolsList: ReturnType<typeof toolsListPayload> | undefined;

export function buildMcpServer(rt: Runtime): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  toolsList ??= toolsListPayload();
  server.setRequestHandler(ListToolsRequestSchema, () => toolsList as never);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    toCallToolResult(await callTool(rt, principalOf(extra), request.params.name, request.params.arguments)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => listResources());
  // MCP's resources capability covers resource templates too, and clients ask for them on connecting (the
  // Inspector's web UI shows "Method not found" as a failed request on every connect). §4.4 names four fixed
  // resources and no template, so the list is empty (rule resources-four).
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readResource(rt, principalOf(extra), request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, () => listPrompts());
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => getPrompt(rt, principalOf(extra), request.params.name, request.params.arguments));
  return server;
}
