// The baseline of bench/mcp-throughput.ts: the MCP SDK's own stateless Streamable HTTP example pattern —
// a new McpServer and a new transport for every request — serving one trivial read tool, on node:http.
// It has no auth, no store and no activity log, so it is a generous baseline.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function newServer(): McpServer {
  const server = new McpServer({ name: 'sdk-stateless-example', version: '1.0.0' });
  server.registerTool('list_sites', { description: 'List sites', inputSchema: { websiteId: z.string().optional() } }, async () => ({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, data: { sites: [{ websiteId: 'site_1', name: 'Demo' }] } }) }],
  }));
  return server;
}

export async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = newServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((r) => { http.close(() => r()); http.closeAllConnections(); }),
  };
}
