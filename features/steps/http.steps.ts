// Protocol- and HTTP-level steps: raw posts to the MCP endpoint (401s, malformed JSON-RPC), public GETs,
// status, headers and bodies, and OAuth discovery.
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { jsonRpcMessages, rawMcpPost, readAnswer, type HttpAnswer } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';
import { activeDeclaration, outputPointer } from '../../conformance/lib/declaration.js';
import { requireOutput } from '../support/located.js';
import { parse, pointer, stringsIn } from '../support/json.js';
import { loadJson } from '../../spec/index.js';
import { CLIENT_ERRORS } from '../../conformance/lib/checks.js';
import { recordedFetch } from '../../conformance/lib/transcript.js';

const SCOPES = loadJson<{ scopes: { name: string }[] }>('scopes.json').scopes.map((s) => s.name);

function lastHttp(world: SiteWorld): HttpAnswer {
  assert.ok(world.lastHttp, 'no HTTP request was made yet in this scenario');
  return world.lastHttp;
}

When('a client posts {string} to the MCP endpoint with token {string}', async function (this: SiteWorld, body: string, token: string) {
  this.lastHttp = await rawMcpPost(this.url, this.resolve(body), token ? { authorization: `Bearer ${this.resolve(token)}` } : {});
});

When('an unauthenticated client posts {string} to the MCP endpoint', async function (this: SiteWorld, body: string) {
  this.lastHttp = await rawMcpPost(this.url, this.resolve(body));
});

When('{string} posts to the MCP endpoint:', async function (this: SiteWorld, name: string, doc: string) {
  this.lastHttp = await rawMcpPost(this.url, this.resolve(doc), { authorization: `Bearer ${this.connection(name).token}` });
});

// A path on the target, or a whole URL (e.g. {{public:main}}).
When('a client GETs {string}', async function (this: SiteWorld, path: string) {
  const resolved = this.resolve(path);
  this.lastHttp = await readAnswer(await recordedFetch(/^https?:\/\//.test(resolved) ? resolved : `${this.url}${resolved}`));
});

// The answer itself, not where it redirects to (rule app-pages-frame-protection covers an app page's redirects too).
When('a client GETs {string} without following redirects', async function (this: SiteWorld, path: string) {
  const resolved = this.resolve(path);
  this.lastHttp = await readAnswer(await recordedFetch(/^https?:\/\//.test(resolved) ? resolved : `${this.url}${resolved}`, { redirect: 'manual' }));
});

/** The Content-Security-Policy of the last answer as directive name → value. */
function cspDirectives(world: SiteWorld): Map<string, string> {
  const header = lastHttp(world).headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map((parts) => [parts[0]!.toLowerCase(), parts.slice(1).join(' ')]),
  );
}

Then('the Content-Security-Policy directive {string} is {string}', function (this: SiteWorld, directive: string, value: string) {
  const csp = cspDirectives(this);
  assert.equal(csp.get(directive), value, `content-security-policy: ${lastHttp(this).headers.get('content-security-policy')}`);
});

Then('the Content-Security-Policy has no directive {string}', function (this: SiteWorld, directive: string) {
  assert.ok(!cspDirectives(this).has(directive), `content-security-policy: ${lastHttp(this).headers.get('content-security-policy')}`);
});

// §4.1: /auth.md describes each scope with a one-line description (scope names from spec/scopes.json, §2.2).
Then('the response body names every scope of the catalogue, each on a line of its own with a description', function (this: SiteWorld) {
  const lines = lastHttp(this).text.split('\n');
  const missing = SCOPES.filter((scope) => !lines.some((line) => line.includes(scope) && line.replace(scope, '').replace(/[\s`*|:\-–—]/g, '').length >= 10));
  assert.deepEqual(missing, [], `scopes without a described line of their own in ${lastHttp(this).text.slice(0, 200)}…`);
});

// What the target asked the kit's loopback website for (rule migrate-crawl-bounded: robots.txt is honoured).
async function websiteRequests(world: SiteWorld): Promise<string[]> {
  return (await fetch(`${world.resolve('{{website}}')}/__kit/requested`)).json() as Promise<string[]>;
}

Then('the kit website was asked for {string}', async function (this: SiteWorld, path: string) {
  path = this.resolve(path);
  const requested = await websiteRequests(this);
  assert.ok(requested.includes(path), `${path} was never requested; requested: ${requested.join(', ')}`);
});

Then('the kit website was never asked for {string}', async function (this: SiteWorld, path: string) {
  const requested = await websiteRequests(this);
  assert.ok(!requested.includes(path), `${path} was requested although robots.txt disallows it`);
});

// The live site at the declared publicSiteUrl, else where the world answer said it is served (publicUrl); without
// either this one check is reported as not checked and the scenario goes on (the fixtures protocol still tells
// whether the site is published).
Then('the public address of {string} answers {int}', async function (this: SiteWorld, site: string, status: number) {
  const template = activeDeclaration()?.publicSiteUrl;
  const told = this.site(site).publicUrl;
  if (!template && !told) return this.notChecked('where a published site is served (publicSiteUrl, or publicUrl in the world answer)');
  const url = template ? template.replaceAll('{base}', this.url).replaceAll('{websiteId}', this.site(site).websiteId) : told!;
  const answer = await readAnswer(await recordedFetch(url));
  assert.equal(answer.status, status, `${url} answered ${answer.status}`);
});

When('a client GETs the URL at {string} of the data', async function (this: SiteWorld, path: string) {
  // Where the field is readable (named by the source or declared) it is read there; otherwise by meaning: the one
  // absolute http(s) address the answer holds (an image's URL, rule generate-image-brand-consistent).
  const readable = outputPointer(this.last.tool, path);
  const url = readable === undefined ? onlyAddressIn(this.last.envelope?.data) : pointer(this.last.envelope?.data, readable);
  if (url === undefined) requireOutput(this, path);
  this.lastHttp = await readAnswer(await recordedFetch(String(url)));
});

/** The one absolute http(s) URL among the strings of `data`, or undefined when there is none or more than one. */
function onlyAddressIn(data: unknown): string | undefined {
  const found = [...stringsIn(data)].filter((text) => /^https?:\/\//i.test(text) && URL.canParse(text));
  return found.length === 1 ? found[0] : undefined;
}

Then('the HTTP status is {int}', function (this: SiteWorld, status: number) {
  assert.equal(lastHttp(this).status, status, lastHttp(this).text.slice(0, 300));
});

Then('the HTTP status is below {int}', function (this: SiteWorld, status: number) {
  assert.ok(lastHttp(this).status < status, `HTTP ${lastHttp(this).status}: ${lastHttp(this).text.slice(0, 300)}`);
});

Then('the response header {string} contains {string}', function (this: SiteWorld, header: string, text: string) {
  const value = lastHttp(this).headers.get(header);
  assert.ok(value?.includes(this.resolve(text)), `${header}: ${value}`);
});

Then('the response header {string} equals {string}', function (this: SiteWorld, header: string, text: string) {
  assert.equal(lastHttp(this).headers.get(header), this.resolve(text));
});

Then('the response JSON at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  assert.deepEqual(pointer(lastHttp(this).json, path), parse(this.resolve(expected)));
});

// RFC 9728 §3.3: a protected-resource document names the resource it was fetched for; a server may also serve none.
Then('either nothing is served there, or the response JSON at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  const answer = lastHttp(this);
  if (answer.status === 404 || answer.status === 410) return;
  assert.equal(answer.status, 200, `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  assert.deepEqual(pointer(answer.json, path), parse(this.resolve(expected)), 'the document names another resource than the one it was fetched for (RFC 9728 §3.3)');
});

Then('the response body contains {string}', function (this: SiteWorld, text: string) {
  assert.ok(lastHttp(this).text.includes(this.resolve(text)), lastHttp(this).text.slice(0, 300));
});

Then('the response body does not contain {string}', function (this: SiteWorld, text: string) {
  assert.ok(!lastHttp(this).text.includes(this.resolve(text)), `the body contains ${text}`);
});


Then('the answer is a JSON-RPC client error', function (this: SiteWorld) {
  const answer = lastHttp(this);
  assert.ok(answer.status < 500, `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  const errors = jsonRpcMessages(answer)
    .map((m) => (m as { error?: { code?: number } }).error)
    .filter((e): e is { code?: number } => Boolean(e));
  assert.ok(errors.length > 0, `HTTP ${answer.status} with no JSON-RPC error: ${JSON.stringify(answer.text.slice(0, 300))}`);
  assert.ok(CLIENT_ERRORS.has(errors[0]!.code!), `JSON-RPC error ${errors[0]!.code} is not a client error (${[...CLIENT_ERRORS].join(', ')}): ${answer.text.slice(0, 300)}`);
});

Then('the protected-resource metadata names the MCP endpoint and an authorization server that offers dynamic client registration', async function (this: SiteWorld) {
  const prm = (await (await recordedFetch(`${this.url}/.well-known/oauth-protected-resource/api/mcp`)).json()) as { resource: string; authorization_servers?: string[] };
  assert.equal(prm.resource, `${this.url}/api/mcp`);
  const issuer = prm.authorization_servers?.[0];
  assert.ok(issuer, 'no authorization server listed');
  const discovery = await recordedFetch(`${issuer}/.well-known/openid-configuration`).then((r) => (r.ok ? r : recordedFetch(`${issuer}/.well-known/oauth-authorization-server`)));
  assert.ok(discovery.ok, `the authorization server ${issuer} publishes no metadata`);
  const meta = (await discovery.json()) as { registration_endpoint?: string; code_challenge_methods_supported?: string[] };
  assert.ok(meta.registration_endpoint, 'no registration_endpoint: dynamic client registration is required');
  assert.ok(meta.code_challenge_methods_supported?.includes('S256'), 'PKCE S256 is required by OAuth 2.1');
});
