// OAuth protected-resource metadata (RFC 9728) for /api/mcp. The 401 of the MCP edge points here.
import type { Context } from 'koa';
import { ALL_SCOPES } from '../domain/scopes.js';
import type { OAuthPort } from '../auth/oauth-identity.js';

export function protectedResourceMetadata(ports: { readonly baseUrl: string; readonly oauth: OAuthPort }) {
  return async (ctx: Context): Promise<void> => {
    const { idp } = await ports.oauth();
    ctx.body = {
      resource: `${ports.baseUrl}/api/mcp`,
      authorization_servers: [idp.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ALL_SCOPES,
      resource_name: 'site-mcp reference server',
    };
  };
}
