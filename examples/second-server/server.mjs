// The Bakehouse server: the agent-facing MCP interface of agent-mcp-interface.md, a second implementation written
// from the source and conformance/README.md alone (it shares no code with reference/). Everything lives under a
// base path of our choosing (default /bakehouse), so {base_url} is http://host:port/bakehouse and the MCP endpoint
// is {base_url}/api/mcp (§1.4). The fixtures protocol is mounted only when a fixtures secret is given.
import { createServer } from 'node:http';
import { Store } from './store.mjs';
import { published, ToolError, TOOLS, validate, missing } from './tools.mjs';
import { fixturesRoute } from './fixtures.mjs';

const RATE = { perConnection: 120, perWorkspace: 600, windowMs: 60_000 }; // §8
const ROLE_RANK = { viewer: 1, editor: 2, owner: 3 };
const MAX_BODY = 1_000_000;
const ACTIVITY_NAME_MAX = 64;

/** One tool call through our call path: rate limits, lookup, scope, input, website, live role, handler, activity. */
export function callTool(store, connection, name, args) {
  const workspaceId = connection.workspaceId;
  const now = store.now(workspaceId);
  let websiteId = null;
  const log = (outcome, code) => store.activity.get(connection.id).push({ at: new Date(now).toISOString(), connectionId: connection.id, workspaceId, websiteId, kind: 'tool', name: String(name).slice(0, ACTIVITY_NAME_MAX), outcome, ...(code ? { code } : {}) });
  try {
    limitRate(store, connection, now);
    const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    if (!tool) throw new ToolError('UNKNOWN_TOOL', 'This server has no tool of that name; tools/list names the ones it has.', 'not_found');
    if (tool.scope && !connection.scopes.includes(tool.scope)) throw new ToolError('DENIED_SCOPE', `This connection was not given the ${tool.scope} scope.`, 'denied', { needs: tool.scope });
    const problems = validate(tool.input, args ?? {});
    if (problems.length) throw new ToolError('BAD_INPUT', 'The arguments are not acceptable: ' + problems.map((p) => `${p.at}: ${p.says}`).join('; '), 'invalid', { problems });
    const roleOn = (site) => site.members.get(connection.createdBy);
    const ctx = { store, connection, args, roleOn };
    if (tool.target === 'site') ctx.site = resolveSite(store, connection, args.websiteId);
    if (tool.target === 'review') Object.assign(ctx, resolveReview(store, connection, args));
    if (ctx.site) {
      websiteId = ctx.site.id;
      // §5.6: the creator's live role on this website, at every call.
      const role = roleOn(ctx.site);
      if (!role || ROLE_RANK[role] < ROLE_RANK[tool.role]) throw new ToolError('NO_LONGER_ALLOWED', "The person who made this connection does not (or no longer) have the access this needs on the website.", 'denied');
    }
    if (ctx.card) checkReview(store, ctx);
    const data = tool.run(ctx);
    log('ok');
    return { ok: true, data };
  } catch (error) {
    if (!(error instanceof ToolError)) {
      log('error', 'FAILED');
      return { ok: false, error: { code: 'FAILED', message: 'The operation failed and nothing was changed.' } };
    }
    log(error.outcome, error.code);
    return { ok: false, error: { code: error.code, message: error.message, ...error.extra } };
  }
}

function limitRate(store, connection, now) {
  const ws = store.workspaces.get(connection.workspaceId);
  for (const [holder, limit] of [[connection, RATE.perConnection], [ws, RATE.perWorkspace]]) {
    holder.calls = (holder.calls ?? []).filter((t) => t > now - RATE.windowMs);
    if (holder.calls.length >= limit) {
      const retryAfter = Math.ceil((holder.calls[0] + RATE.windowMs - now) / 1000);
      throw new ToolError('SLOW_DOWN', `Too many calls; try again in ${retryAfter} s.`, 'refused', { retryAfter });
    }
  }
  connection.calls.push(now);
  ws.calls.push(now);
}

/** §4.2: a website connection needs no websiteId; a workspace one must name a site. Another tenant's site is "missing". */
function resolveSite(store, connection, websiteId) {
  if (connection.reach === 'website') {
    if (websiteId !== undefined && websiteId !== connection.websiteId) throw missing('website');
    return store.sites.get(connection.websiteId);
  }
  if (websiteId === undefined) throw new ToolError('SITE_ID_NEEDED', 'This connection reaches the whole workspace: name the website with websiteId (list_sites lists them).', 'invalid');
  const site = store.sites.get(websiteId);
  if (!site || site.workspaceId !== connection.workspaceId) throw missing('website');
  return site;
}

function resolveReview(store, connection, args) {
  const card = store.review(args.planId);
  if (!card || card.workspaceId !== connection.workspaceId) throw missing('review card');
  if (card.collected) throw new ToolError('PLAN_TIMED_OUT', 'This review card expired; prepare a new one.', 'refused');
  // §2.6: redemption is against the plan's own website; naming another one is refused.
  if (args.websiteId !== undefined && args.websiteId !== card.websiteId) throw new ToolError('PLAN_WRONG_SITE', 'This review card belongs to another website.', 'refused');
  if (card.connectionId !== connection.id) throw new ToolError('PLAN_OTHER_CALLER', 'Only the connection that prepared this review card can carry it out.', 'refused');
  return { card, site: store.sites.get(card.websiteId) };
}

function checkReview(store, { card }) {
  const scope = 'publish';
  const connection = store.connections.get(card.connectionId);
  if (!connection.scopes.includes(scope)) throw new ToolError('DENIED_SCOPE', `This connection was not given the ${scope} scope.`, 'denied', { needs: scope });
  if (card.state === 'carried-out') throw new ToolError('PLAN_SPENT', 'This review card was already carried out.', 'refused');
  if (card.state === 'rejected') throw new ToolError('PLAN_REJECTED', 'An owner declined this review card; prepare a new one.', 'refused');
  if (card.state !== 'approved') throw new ToolError('PLAN_WAITING', 'An owner has not approved this review card in the app yet.', 'refused');
}

// ── MCP over HTTP (JSON-RPC 2.0, Streamable HTTP answered as plain JSON) ─────────────────────────────────────

const rpcError = (id, code, message) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

function mcp(store, connection, message) {
  const { id, method, params } = message;
  switch (method) {
    case 'initialize':
      return { jsonrpc: '2.0', id, result: { protocolVersion: typeof params?.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18', capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'bakehouse', version: '0.1.0' } } };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: Object.entries(TOOLS).map(([name, t]) => ({ name, description: t.description, inputSchema: published(t.input) })) } };
    case 'tools/call': {
      if (typeof params?.name !== 'string') return rpcError(id, -32602, 'tools/call needs params.name');
      const args = params.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return rpcError(id, -32602, 'tools/call arguments must be an object');
      const envelope = callTool(store, connection, params.name, args);
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope, isError: !envelope.ok } };
    }
    default:
      return rpcError(id, -32601, `no method ${method}`);
  }
}

function send(res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
  res.end(text);
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw Object.assign(new Error('too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handleMcp(store, req, res) {
  if (req.method !== 'POST') return send(res, 405, rpcError(null, -32000, 'POST JSON-RPC messages here'), { allow: 'POST' });
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const connection = token ? store.connectionByToken(token) : undefined;
  if (!connection) return send(res, 401, rpcError(null, -32001, 'A bearer token of a connection is needed.'), { 'www-authenticate': 'Bearer realm="bakehouse"' });
  let message;
  try {
    message = JSON.parse(await readBody(req));
  } catch (error) {
    if (error.status === 413) return send(res, 413, rpcError(null, -32600, 'message too large'));
    return send(res, 400, rpcError(null, -32700, 'not JSON'));
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return send(res, 400, rpcError(message?.id, -32600, 'not a JSON-RPC 2.0 request'));
  }
  if (message.id === undefined) return send(res, 202); // a notification
  return send(res, 200, mcp(store, connection, message));
}

// ── the live site (§3: "Draft becomes the live snapshot"; "Site taken off the public address") ───────────────

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function livePage(store, websiteId, res) {
  const site = store.sites.get(websiteId);
  if (!site || !site.online || !site.live) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return res.end('Not online.');
  }
  const body = site.live.pages.filter((p) => p.kind === 'page').map((p) => `<article><h1>${escapeHtml(p.title)}</h1>${p.sections.filter((s) => !s.hidden).map((s) => `<section>${Object.values(s.content).map((v) => `<p>${escapeHtml(v)}</p>`).join('')}</section>`).join('')}</article>`).join('');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" });
  res.end(`<!doctype html><title>${escapeHtml(site.name)}</title>${body}`);
}

/** Starts the server; `base` is the path everything is served under. Answers { url, store, close }. */
export async function startBakehouse({ port = 0, host = '127.0.0.1', base = '/bakehouse', fixturesSecret } = {}) {
  const store = new Store();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (!url.pathname.startsWith(`${base}/`)) return send(res, 404, { problem: 'nothing here' });
      const path = url.pathname.slice(base.length);
      if (path === '/api/mcp') return await handleMcp(store, req, res);
      const live = /^\/live\/([^/]+)\//.exec(path);
      if (live && req.method === 'GET') return livePage(store, decodeURIComponent(live[1]), res);
      if (fixturesSecret && (path === '/test-fixtures/v1' || path.startsWith('/test-fixtures/v1/'))) {
        // Without the secret the protocol does not exist (404, as for any unknown path).
        if (req.headers['x-fixtures-secret'] !== fixturesSecret) return send(res, 404, { problem: 'nothing here' });
        const text = req.method === 'POST' ? await readBody(req) : '';
        let body = {};
        try {
          body = text ? JSON.parse(text) : {};
        } catch {
          return send(res, 400, { error: { code: 'BAD_INPUT', message: 'The body is not JSON.' } });
        }
        const [status, answer] = fixturesRoute(store, req.method, path.slice('/test-fixtures/v1'.length), url.searchParams, body);
        return send(res, status, answer);
      }
      return send(res, 404, { problem: 'nothing here' });
    } catch (error) {
      if (!res.headersSent) send(res, error.status ?? 500, { problem: error.status ? 'too large' : 'failed' });
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}${base}`,
    store,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
