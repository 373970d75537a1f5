// OAuth 2.1 (§5.1) against any target: a client registered and approved through the MCP SDK's own flow, with
// the owner's consent done by the target (fixtures protocol `oauth-consent`). The client then acts like any
// named connection in the other steps ("chat" calls "list_sites").
import { Given, When } from '@cucumber/cucumber';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import { authorizeOAuthClient } from '../../conformance/lib/oauth-client.js';
import type { SiteWorld } from '../support/world.js';
import { NotDeclared } from '../../conformance/lib/declaration.js';
import { fixturesSupport } from '../../conformance/lib/fixtures-client.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

Given('{string} approves a new OAuth client {string} for {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  // The source shows no consent page: without the optional fixtures part `oauth-consent` the scenario is not checked.
  if (!fixturesSupport('oauth-consent')) throw new NotDeclared("the owner's OAuth consent: the target's fixtures do not support oauth-consent");
  const grant = await authorizeOAuthClient(this.url, this.fixtures, { clientName: `conformance ${name}`, userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes) });
  // The connection the server bound the client to is the server's business; the kit never names it.
  this.connections.set(name, { connectionId: '', token: grant.accessToken, userKey: user, mcp: new McpConnection(this.url, grant.accessToken) });
});

// rule oauth-no-caller-profile-id: the ways a caller might name another connection or profile, on every request.
When('the OAuth client {string} names the connection {string} in every request', async function (this: SiteWorld, name: string, other: string) {
  const client = this.connection(name);
  const id = this.connection(other).connectionId;
  await client.mcp.close();
  this.connections.set(name, { ...client, mcp: new McpConnection(this.url, client.token, { 'X-Connection-Id': id, 'X-Profile-Id': id, 'Mcp-Connection-Id': id, 'X-Site-Mcp-Connection': id }) });
});
