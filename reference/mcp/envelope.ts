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
