// Which MCP protocol eras a target offers: the kit checks each one it offers and judges a target by the
// eras it speaks alone, since the source names no MCP revision. The 2026-07-28 era is offered when
// `server/discover` (its first request, with the revision in `_meta` and the standard headers) answers a JSON-RPC
// result; the 2025-11-25 era when `initialize` does. Whether those answers are right is for the checks of the
// era's rules (features/protocol-eras.feature), not for this probe.
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { FixturesClient } from './fixtures-client.js';
import { jsonRpcMessages, readAnswer, type HttpAnswer, type ProtocolEra } from './mcp-client.js';
import { recordedFetch } from './transcript.js';

export const MODERN_ERA = '2026-07-28';

/** The methods whose Mcp-Name header mirrors a field of params in the 2026 era, and that field. */
const NAME_FIELD: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/**
 * A JSON-RPC request of the 2026-07-28 era, as the SDK v2 client sends it: the revision and the client's
 * capabilities in params._meta, and the MCP-Protocol-Version, Mcp-Method and (where the method has one) Mcp-Name
 * headers. `version` names another revision in both places (rule mcp-2026-unsupported-version).
 */
export function modernRequest(method: string, params: Record<string, unknown> = {}, version: string = MODERN_ERA): { body: string; headers: Record<string, string> } {
  const meta = { ...(params._meta as Record<string, unknown> | undefined), [PROTOCOL_VERSION_META_KEY]: version, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method };
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method]! : undefined;
  if (field && typeof params[field] === 'string') headers['mcp-name'] = params[field] as string;
  return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }), headers };
}

/** A POST to the target's MCP endpoint, bounded (recordedFetch is boundedFetch), recorded for a failed step's transcript. */
export async function postToMcp(url: string, body: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return readAnswer(
    await recordedFetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    }),
  );
}

/** The first JSON-RPC message of an answer, if it is an object. */
export function firstMessage(answer: HttpAnswer): Record<string, any> | undefined {
  const message = jsonRpcMessages(answer)[0];
  return message && typeof message === 'object' && !Array.isArray(message) ? (message as Record<string, any>) : undefined;
}

export interface EraProbe {
  era: ProtocolEra;
  offered: boolean;
  /** What the target answered the era's first request, in a few words (for the report of an era not offered). */
  answer: string;
}

const describe = (answer: HttpAnswer): string => {
  const message = firstMessage(answer);
  if (message?.error) return `HTTP ${answer.status}, JSON-RPC error ${message.error.code} ${JSON.stringify(String(message.error.message ?? '').slice(0, 80))}`;
  if (message?.result) return `HTTP ${answer.status}, a result`;
  return `HTTP ${answer.status}, no JSON-RPC answer`;
};

/**
 * Probes each era with a token of a fresh world (the MCP endpoint answers nobody without one): server/discover for
 * 2026-07-28, initialize for 2025-11-25. A probe that gets no answer at all (a closed connection, a timeout) says
 * the era is not offered, with that reason.
 */
export async function probeEras(target: { url: string; fixturesSecret: string }): Promise<EraProbe[]> {
  const fx = new FixturesClient(target.url, target.fixturesSecret);
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] } as never);
  const { token } = await fx.connection({ userId: world.users.owner!.userId, websiteId: world.sites.main!.websiteId, scopes: ['site:read'] } as never);
  const authorization = `Bearer ${token}`;
  const probe = async (era: ProtocolEra, request: { body: string; headers: Record<string, string> }): Promise<EraProbe> => {
    try {
      const answer = await postToMcp(target.url, request.body, { ...request.headers, authorization });
      return { era, offered: answer.status < 300 && Boolean(firstMessage(answer)?.result), answer: describe(answer) };
    } catch (error) {
      return { era, offered: false, answer: `no answer (${(error as Error).message})` };
    }
  };
  const initialize = {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'site-mcp-conformance', version: '0.1.0' } } }),
    headers: {},
  };
  return Promise.all([probe('2025-11-25', initialize), probe(MODERN_ERA, modernRequest('server/discover'))]);
}
