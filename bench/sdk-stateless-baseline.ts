// The baseline of bench/mcp-throughput.ts, run as its own process: the MCP SDK's stateless Streamable HTTP
// example pattern — a new McpServer and a new transport for every request — serving one trivial read tool on
// node:http. It has no auth, no store and no activity log, so it is a generous baseline.
import { createServer } from 'node:http';
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

const http = createServer(async (req, res) => {
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
http.listen(0, '127.0.0.1', () => console.log(`baseline listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
process.on('SIGTERM', () => http.close(() => process.exit(0)));
