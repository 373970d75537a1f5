// A refused prompts/get or resources/read carries the JSON-RPC code and the server's sentence once: the SDK
// prefixes an McpError's message on the server and again in the client, so the official MCP conformance suite
// saw "MCP error -32602: MCP error -32602: Unknown prompt …" before reference/mcp/protocol-error.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from '../../conformance/lib/mcp-client.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
let mcp: McpConnection;

beforeAll(async () => {
  test = await startTestServer('protocol-errors');
  ({ mcp } = await ownerWithConnection(test, ['site:read']));
});

afterAll(async () => {
  await mcp?.close();
  await test?.stop();
});

async function refusal(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('protocol errors', () => {
  it('an unknown prompt is InvalidParams with one prefix', async () => {
    const error = await refusal(mcp.getPrompt('no_such_prompt'));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(`MCP error ${ErrorCode.InvalidParams}: Unknown prompt no_such_prompt; see prompts/list.`);
  });

  it('a prompt without its required argument is InvalidParams with one prefix', async () => {
    const { prompts } = await mcp.listPrompts();
    const needing = prompts.find((p) => p.arguments?.some((a) => a.required));
    if (!needing) return expect(prompts.length).toBeGreaterThan(0); // no prompt takes a required argument today
    const error = await refusal(mcp.getPrompt(needing.name));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('an unknown resource is InvalidParams with one prefix', async () => {
    const error = await refusal(mcp.readResource('site://no-such-resource'));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(`MCP error ${ErrorCode.InvalidParams}: Unknown resource site://no-such-resource; see resources/list.`);
  });
});
