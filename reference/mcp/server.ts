// The MCP server of the 2025 protocol era (initialize, sessionless): the low-level SDK Server with the shared
// method handlers of methods.ts (tools from spec/tools, resources from spec/resources.json, prompts from
// spec/prompts.json). The 2026-07-28 era serves the same handlers without the SDK's Server (era-2026.ts).
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
import type { CallPorts, Principal } from './pipeline.js';
import { CAPABILITIES, INSTRUCTIONS, METHODS, SERVER_INFO, type MethodName } from './methods.js';

export { SERVER_INFO } from './methods.js';

export function principalOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): Principal {
  const principal = extra.authInfo?.extra?.principal as Principal | undefined;
  // The HTTP mount authenticates before the SDK sees a message; reaching here without one is a wiring bug.
  if (!principal) throw new McpError(ErrorCode.InternalError, 'unauthenticated request reached the MCP server');
  return principal;
}

// Built once per process: the SDK would otherwise construct an Ajv instance inside every Server.
const sharedValidator = new AjvJsonSchemaValidator();

const SCHEMAS = {
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
} satisfies Record<MethodName, unknown>;

export function buildMcpServer(ports: CallPorts): Server {
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: sharedValidator });
  for (const method of Object.keys(SCHEMAS) as MethodName[]) {
    const handler = METHODS[method] as (ports: CallPorts, principal: Principal, params: Record<string, unknown>) => unknown;
    server.setRequestHandler(SCHEMAS[method] as typeof ListToolsRequestSchema, (request, extra) =>
      handler(ports, principalOf(extra), (request.params ?? {}) as Record<string, unknown>) as never,
    );
  }
  return server;
}
