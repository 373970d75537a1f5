// The tool-result envelope of §4.1 / §7 and its MCP encoding: structuredContent and the JSON text of the
// single text item carry the same envelope; isError mirrors ok === false.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DomainError } from '../domain/errors.js';

export type Envelope = { ok: true; data: unknown } | { ok: false; error: ReturnType<DomainError['toJSON']> };

export function toCallToolResult(envelope: Envelope): CallToolResult {
  const text = JSON.stringify(envelope);
  return {
    content: [{ type: 'text', text }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    ...(envelope.ok ? {} : { isError: true }),
  };
}

/**
 * The JSON-RPC response to a tools/call, as text: exactly JSON.stringify({ result: toCallToolResult(envelope),
 * jsonrpc: '2.0', id }), the bytes the SDK sends, but with the envelope serialized once instead of twice (its text
 * item and structuredContent are the same JSON). mcp-direct-path.test.ts compares it with the SDK's answer.
 * `resultSuffix` is what an era adds to the result, already serialized with a leading comma (era-2026.ts).
 */
export function callToolResponseText(id: string | number, envelope: Envelope, resultSuffix = ''): string {
  const json = JSON.stringify(envelope);
  return `{"result":{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}${envelope.ok ? '' : ',"isError":true'}${resultSuffix}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}
