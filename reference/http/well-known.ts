// OAuth protected-resource metadata (RFC 9728) for /api/mcp. The 401 of the MCP edge points here.
import type { Context } from 'koa';
import { ALL_SCOPES } from '../domain/scopes.js';
import type { Runtime } from '../runtime.js';

export function protectedResourceMetadata(rt: Runtime) {
  return async (ctx: Context): Promise<void> => {
    const { idp } = await rt.oauth();
    ctx.body = {
      resource: `${rt.baseUrl}/api/mcp`,
      authorization_servers: [idp.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ALL_SCOPES,
      resource_name: 'site-mcp reference server',
    };
  };
}
