// A JSON-RPC error the SDK's Server sends as it is. The SDK prefixes an McpError's message with
// "MCP error <code>: " when it is built and again when the client rebuilds it, so a message thrown as an
// McpError reached clients as "MCP error -32602: MCP error -32602: Unknown prompt …" (seen by the official MCP
// conformance suite). The SDK reads only `code`, `message` and `data` of what a handler throws.
export function protocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}
