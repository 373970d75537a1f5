// Acting over MCP and HTTP, and asserting on answers, activity and site state. Negative scenarios assert the
// exact error code.
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { rawMcpPost, readAnswer } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';

async function call(world: SiteWorld, name: string, tool: string, args: Record<string, unknown>) {
  const { envelope } = await world.connection(name).mcp.callTool(tool, args);
  world.last = { tool, connection: name, envelope };
  const planId = envelope.ok ? (envelope.data as { planId?: string } | undefined)?.planId : undefined;
  if (planId && tool.startsWith('prepare_')) world.lastPlanId = planId;
}

When('{string} calls {string}', async function (this: SiteWorld, name: string, tool: string) {
  await call(this, name, tool, {});
});

When('{string} calls {string} with:', async function (this: SiteWorld, name: string, tool: string, doc: string) {
  await call(this, name, tool, JSON.parse(this.resolve(doc)));
});

async function repeat(world: SiteWorld, name: string, tool: string, times: number, args: Record<string, unknown>) {
  // Batches of concurrent calls keep the scenario fast.
  for (let done = 0; done < times; done += 20) {
    await Promise.all(Array.from({ length: Math.min(20, times - done) }, () => world.connection(name).mcp.callTool(tool, args)));
  }
}

When('{string} calls {string} {int} times', async function (this: SiteWorld, name: string, tool: string, times: number) {
  await repeat(this, name, tool, times, {});
});

When('{string} calls {string} {int} times with:', async function (this: SiteWorld, name: string, tool: string, times: number, doc: string) {
  await repeat(this, name, tool, times, JSON.parse(this.resolve(doc)));
});

function pointer(value: unknown, path: string): unknown {
  if (path === '' || path === '/') return value;
  return path.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

Then('the call succeeds', function (this: SiteWorld) {
  assert.ok(this.last.envelope?.ok, `${this.last.tool} failed: ${JSON.stringify(this.last.envelope?.error)}`);
});

Then('the call fails with {string}', function (this: SiteWorld, code: string) {
  const env = this.last.envelope!;
  assert.equal(env.ok, false, `${this.last.tool} succeeded but should fail with ${code}: ${JSON.stringify(env.data ?? null).slice(0, 200)}`);
  assert.equal(env.error!.code, code, `${this.last.tool}: ${env.error!.message}`);
  assert.ok(env.error!.message.length > 10, 'the error message must say what to do');
});

Then('the data at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(this.last.envelope?.data, path), parse(this.resolve(expected)));
});

Then('the data at {string} has {int} items', function (this: SiteWorld, path: string, count: number) {
  const value = pointer(this.last.envelope?.data, path);
  assert.ok(Array.isArray(value), `${path} is not an array`);
  assert.equal(value.length, count);
});

Then('the error details at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(this.last.envelope?.error?.details, path), parse(this.resolve(expected)));
});

Then('the data contains {string}', function (this: SiteWorld, text: string) {
  assert.ok(JSON.stringify(this.last.envelope?.data).includes(this.resolve(text)), `data lacks ${text}`);
});

Then('the data does not contain {string}', function (this: SiteWorld, text: string) {
  assert.ok(!JSON.stringify(this.last.envelope?.data ?? null).includes(this.resolve(text)), `data contains ${text}`);
});

Then('the answer equals the remembered {string} except {string}', function (this: SiteWorld, key: string, ignored: string) {
  const strip = (e: unknown) => JSON.parse(JSON.stringify(e), (k, v) => (k === ignored ? undefined : v));
  assert.deepEqual(strip(this.last.envelope), strip(this.remembered.get(key)));
});

When('the answer is remembered as {string}', function (this: SiteWorld, key: string) {
  this.remembered.set(key, this.last.envelope);
});

Then('the activity of {string} has an entry for {string} with outcome {string}', async function (this: SiteWorld, name: string, tool: string, outcome: string) {
  const { entries } = await this.fixtures.activity(this.connection(name).connectionId);
  assert.ok(entries.some((e) => e.name === tool && e.outcome === outcome), `no ${tool}/${outcome} in ${JSON.stringify(entries.map((e) => `${e.name}/${e.outcome}`))}`);
});

Then('the activity of {string} has an entry for {string} with code {string}', async function (this: SiteWorld, name: string, tool: string, code: string) {
  const { entries } = await this.fixtures.activity(this.connection(name).connectionId);
  assert.ok(entries.some((e) => e.name === tool && e.code === code), `no ${tool} with ${code} in ${JSON.stringify(entries.map((e) => `${e.name}/${e.code}`))}`);
});

Then('the activity of {string} has {int} entries', async function (this: SiteWorld, name: string, count: number) {
  const { entries } = await this.fixtures.activity(this.connection(name).connectionId);
  assert.equal(entries.length, count, JSON.stringify(entries.map((e) => e.name)));
});

Then('no activity entry of {string} contains {string}', async function (this: SiteWorld, name: string, text: string) {
  const { entries } = await this.fixtures.activity(this.connection(name).connectionId);
  assert.ok(entries.length > 0, 'no activity at all');
  assert.ok(!JSON.stringify(entries).includes(this.resolve(text)), `activity contains ${text}`);
});

Then('the published state of {string} is unchanged', async function (this: SiteWorld, site: string) {
  const state = await this.fixtures.siteState(this.site(site).websiteId);
  assert.equal(state.publishedFingerprint, this.remembered.get(`published:${site}`));
});

Then('the site {string} is published at the current draft revision', async function (this: SiteWorld, site: string) {
  const state = await this.fixtures.siteState(this.site(site).websiteId);
  assert.equal(state.status, 'published');
  assert.equal(state.publishedRevision, state.siteRevision);
  assert.equal(state.publishedFingerprint, state.draftFingerprint);
});

Then('the site {string} is not published', async function (this: SiteWorld, site: string) {
  assert.equal((await this.fixtures.siteState(this.site(site).websiteId)).status, 'unpublished');
});

Then('the plan is garbage-collected', async function (this: SiteWorld) {
  const workspaceId = this.worlds[0]!.workspaceId;
  await assert.rejects(this.fixtures.plan(this.resolve('{{plan}}'), workspaceId), (e: { status?: number }) => e.status === 404);
});

Then('the approval was refused', function (this: SiteWorld) {
  assert.notEqual(this.remembered.get('decision'), 'accepted');
});

Then('the connection view of {string} shows preset {string}', async function (this: SiteWorld, name: string, label: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  assert.equal(view.presetLabel, label);
});

Then('the connection view of {string} lists scopes {string}', async function (this: SiteWorld, name: string, scopes: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  assert.deepEqual([...(view.scopes as string[])].sort(), scopes.split(',').map((s) => s.trim()).filter(Boolean).sort());
});

Then('the token of {string} starts with a prefix ending in {string}', function (this: SiteWorld, name: string, suffix: string) {
  const token = this.connection(name).token;
  const prefix = /^[a-z]+_live_/.exec(token)?.[0];
  assert.ok(prefix?.endsWith(suffix), `token ${token.slice(0, 12)}… has no prefix ending in ${suffix}`);
});

Then('no read of the connection {string} returns its token', async function (this: SiteWorld, name: string) {
  const c = this.connection(name);
  const view = await this.fixtures.connectionView(c.connectionId);
  const text = JSON.stringify(view);
  assert.ok(!text.includes(c.token), 'the connection view contains the plaintext token');
  assert.ok(!text.includes(c.token.slice(-20)), 'the connection view contains part of the secret');
  assert.ok(c.token.startsWith(String(view.tokenPrefix)), 'the display prefix must be a prefix of the token');
  assert.ok(String(view.tokenPrefix).length < 20, 'the display prefix must be short');
});

When('{string} cannot create a connection to {string}', async function (this: SiteWorld, user: string, site: string) {
  try {
    await this.fixtures.connection({ userId: this.user(user).userId, websiteId: this.site(site).websiteId });
    assert.fail(`${user} created a connection without owning ${site}`);
  } catch (error) {
    const e = error as { status?: number; body?: { error?: { code?: string } } };
    assert.equal(e.body?.error?.code, 'owner_only', `expected owner_only, got ${JSON.stringify(e.body)}`);
  }
});

When('a client posts {string} to the MCP endpoint with token {string}', async function (this: SiteWorld, body: string, token: string) {
  this.lastHttp = await rawMcpPost(this.url, this.resolve(body), token ? { authorization: `Bearer ${this.resolve(token)}` } : {});
});

When('a client GETs {string}', async function (this: SiteWorld, path: string) {
  this.lastHttp = await readAnswer(await fetch(`${this.url}${this.resolve(path)}`));
});

Then('the HTTP status is {int}', function (this: SiteWorld, status: number) {
  assert.equal(this.lastHttp?.status, status, this.lastHttp?.text.slice(0, 300));
});

Then('the HTTP status is below {int}', function (this: SiteWorld, status: number) {
  assert.ok((this.lastHttp?.status ?? 999) < status, `HTTP ${this.lastHttp?.status}: ${this.lastHttp?.text.slice(0, 300)}`);
});

Then('the response header {string} contains {string}', function (this: SiteWorld, header: string, text: string) {
  assert.ok(this.lastHttp?.headers.get(header)?.includes(this.resolve(text)), `${header}: ${this.lastHttp?.headers.get(header)}`);
});

Then('the response JSON at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(this.lastHttp?.json, path), parse(this.resolve(expected)));
});

Then('the response body contains {string}', function (this: SiteWorld, text: string) {
  assert.ok(this.lastHttp?.text.includes(this.resolve(text)), this.lastHttp?.text.slice(0, 300));
});

Then('the response body does not contain {string}', function (this: SiteWorld, text: string) {
  assert.ok(!this.lastHttp?.text.includes(this.resolve(text)));
});

When('{string} calls {string} with a snapshot of {int} bytes', async function (this: SiteWorld, name: string, tool: string, bytes: number) {
  const filler = 'x'.repeat(8000);
  const items = Array.from({ length: Math.ceil(bytes / 8000) }, (_, i) => ({ n: i, text: filler }));
  const snapshot = { format: 'PortableSiteV1', site: { name: 'Big' }, pages: [], collections: [{ key: 'big', name: 'Big', items }] };
  await call(this, name, tool, { snapshot });
});

When('a client GETs the URL at {string} of the data', async function (this: SiteWorld, path: string) {
  this.lastHttp = await readAnswer(await fetch(String(pointer(this.last.envelope?.data, path))));
});

When('{string} cannot create a connection with reach {string}', async function (this: SiteWorld, user: string, reach: string) {
  await assert.rejects(this.fixtures.connection({ userId: this.user(user).userId, reach }), (e: { body?: { error?: { code?: string } } }) => e.body?.error?.code === 'validation_failed');
});

Then('the protected-resource metadata names an authorization server that offers dynamic client registration', async function (this: SiteWorld) {
  const prm = (await (await fetch(`${this.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { resource: string; authorization_servers?: string[] };
  assert.equal(prm.resource, `${this.url}/api/mcp`);
  const issuer = prm.authorization_servers?.[0];
  assert.ok(issuer, 'no authorization server listed');
  const discovery = await fetch(`${issuer}/.well-known/openid-configuration`).then((r) => (r.ok ? r : fetch(`${issuer}/.well-known/oauth-authorization-server`)));
  const meta = (await discovery.json()) as { registration_endpoint?: string; code_challenge_methods_supported?: string[] };
  assert.ok(meta.registration_endpoint, 'no registration_endpoint: dynamic client registration is required');
  assert.ok(meta.code_challenge_methods_supported?.includes('S256'), 'PKCE S256 is required by OAuth 2.1');
});

Then('the activity of {string} has {int} entries with credits spent', async function (this: SiteWorld, name: string, count: number) {
  const { entries } = await this.fixtures.activity(this.connection(name).connectionId);
  assert.equal(entries.filter((e) => Number(e.creditsSpent ?? 0) > 0).length, count, JSON.stringify(entries.map((e) => `${e.name}/${e.outcome}/${e.creditsSpent ?? 0}`)));
});
