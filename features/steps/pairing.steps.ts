// Device-code pairing from the command-line tool's side: start, poll, and use what the poll returned.
import assert from 'node:assert/strict';
import { When, Then } from '@cucumber/cucumber';
import { McpConnection, readAnswer } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';

async function postJson(world: SiteWorld, path: string, body: unknown) {
  world.lastHttp = await readAnswer(await fetch(`${world.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return world.lastHttp.json as Record<string, any>;
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

When('a command-line tool starts a pairing asking for {string}', async function (this: SiteWorld, scopes: string) {
  const started = await postJson(this, '/v1/cli/pair/start', { scopes: list(scopes) });
  this.remembered.set('pairing', started);
});

When('a command-line tool starts a {word} pairing asking for {string}', async function (this: SiteWorld, variant: string, scopes: string) {
  const started = await postJson(this, '/v1/cli/pair/start', { scopes: list(scopes), ...(variant === 'read-only' ? { readOnly: true } : { admin: true }) });
  this.remembered.set('pairing', started);
});

When('{string} approves the pairing for {string} leaving {string} ticked', async function (this: SiteWorld, user: string, site: string, scopes: string) {
  const { userCode } = this.remembered.get('pairing') as { userCode: string };
  await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes) });
});

When('{string} tries to approve the pairing company-wide leaving {string} ticked', async function (this: SiteWorld, user: string, scopes: string) {
  const { userCode } = this.remembered.get('pairing') as { userCode: string };
  try {
    await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: null, scopes: list(scopes) });
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

When('{string} tries to approve the pairing for {string} leaving {string} ticked', async function (this: SiteWorld, user: string, site: string, scopes: string) {
  const { userCode } = this.remembered.get('pairing') as { userCode: string };
  try {
    await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes) });
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

When('the command-line tool polls', async function (this: SiteWorld) {
  const { deviceCode } = this.remembered.get('pairing') as { deviceCode: string };
  const answer = await postJson(this, '/v1/cli/pair/poll', { deviceCode });
  if (answer.token) {
    this.remembered.set('polled', answer);
    this.remembered.set('polled-token', answer.token);
  }
});

Then('the poll answers {string} without a token', function (this: SiteWorld, status: string) {
  const json = this.lastHttp?.json as Record<string, unknown>;
  assert.equal(json.status, status);
  assert.equal(json.token, undefined);
});

Then('the poll answers approved with scopes {string} and website {string}', function (this: SiteWorld, scopes: string, website: string) {
  const json = this.lastHttp?.json as Record<string, unknown>;
  assert.equal(json.status, 'approved');
  assert.equal(typeof json.token, 'string');
  assert.deepEqual([...(json.scopes as string[])].sort(), list(scopes).sort());
  assert.equal(json.websiteId, website === 'null' ? null : this.resolve(website));
});

When('the polled token is used as connection {string}', function (this: SiteWorld, name: string) {
  const { token } = this.remembered.get('polled') as { token: string };
  this.connections.set(name, { connectionId: '', token, userKey: '', mcp: new McpConnection(this.url, token) });
  this.remembered.set(`token:${name}`, token);
});

When('a client reads the published site with the polled token', async function (this: SiteWorld) {
  const { token } = this.remembered.get('polled') as { token: string };
  this.lastHttp = await readAnswer(await fetch(`${this.url}/v1/delivery/site`, { headers: { authorization: `Bearer ${token}` } }));
});
