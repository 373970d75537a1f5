// The 2026-07-28 baseline of bench/mcp-throughput.ts, run as its own process: the MCP SDK v2's own serving pattern
// for that revision — createMcpHandler with a new McpServer per request (its documented per-request factory),
// JSON responses — serving the same trivial read tool as bench/sdk-stateless-baseline.ts on node:http. Node's
// request is turned into a web Request here as @modelcontextprotocol/node's toNodeHandler would (that package is
// not installed). No auth, no store, no activity log: a generous baseline, like the 2025 one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk-v2-example', version: '1.0.0' });
    server.registerTool('list_sites', { description: 'List sites', inputSchema: z.object({ websiteId: z.string().optional() }) }, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ ok: true, data: { sites: [{ websiteId: 'site_1', name: 'Demo' }] } }) }],
    }));
    return server;
  },
  { responseMode: 'json' },
);

const http = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
http.listen(0, '127.0.0.1', () => console.log(`baseline listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
process.on('SIGTERM', () => http.close(() => process.exit(0)));
