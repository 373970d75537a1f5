// Device-code pairing from the command-line tool's side: start, poll, and use what the poll returned. §4.1 names
// the poll's websiteId and no other field of these bodies, and §3 no state names: every other name is read and
// written through the target's pairing names (pairingNames: its declared mapping, or ours, pairing-field-names).
import assert from 'node:assert/strict';
import { Given, When, Then } from '@cucumber/cucumber';
import { FixturesPartMissing } from '../../conformance/lib/fixtures-client.js';
import { McpConnection, readAnswer, type HttpAnswer } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';
import { Browser, formsOf, type HtmlForm, type Page } from '../support/browser.js';
import { loadJson, sharedAjv, SPEC_BASE } from '../../spec/index.js';
import { NotDeclared, pairingNames, pairingNamesOrOurs, type PairingField, type PairingStatus } from '../../conformance/lib/declaration.js';
import { kitChoosesAddress, randomLoopback } from '../support/client-address.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';
import { recordedFetch } from '../../conformance/lib/transcript.js';

async function postJson(world: SiteWorld, path: string, body: unknown) {
  world.lastHttp = await readAnswer(await recordedFetch(`${world.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return world.lastHttp.json as Record<string, any>;
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

/** A field of the pairing start's answer, by our name, read under the target's name. */
function started(world: SiteWorld, ours: PairingField): unknown {
  return (world.remembered.get('pairing') as Record<string, unknown> | undefined)?.[pairingNames().field(ours)];
}

/** The user code the pairing start answered (§4.1 "a user code to show the user"). */
function startedUserCode(world: SiteWorld): string {
  const userCode = started(world, 'userCode');
  assert.ok(typeof userCode === 'string' && userCode, `the pairing start answered no ${pairingNames().field('userCode')}: ${JSON.stringify(world.remembered.get('pairing'))}`);
  return userCode;
}

/** A start request in the target's names: the scopes, and the flag of a read-only or admin pairing. */
function startBody(scopes: string[], flag?: 'readOnly' | 'admin'): Record<string, unknown> {
  const names = pairingNames();
  return { [names.field('scopes')]: names.encodeScopes(scopes), ...(flag ? { [names.field(flag)]: true } : {}) };
}

// The scenario needs only the names of the pairing bodies, not ours: a target's declared mapping does as well.
Given("the target's pairing field names are known", function () {
  pairingNames();
});

/** The longest Retry-After an ordinary pairing start waits out (the step timeout is 60 s). */
const PAIRING_RETRY_LIMIT_S = 40;

/**
 * POST /v1/cli/pair/start for a scenario that is not about the throttle. How many starts one address may make is a
 * decision (pair-start-throttled-per-address), so the kit's own scenarios must not spend a target's allowance: where
 * the kit can choose its client address (kitChoosesAddress), each start comes from one of its own. Whatever the
 * address, a 429 is waited out once when its Retry-After is at most PAIRING_RETRY_LIMIT_S, and otherwise the rest of
 * the scenario is reported as not checked, never as a failure: a 429 with Retry-After is an answer the source allows
 * (a target may count starts in other ways than per address).
 */
async function startPairing(world: SiteWorld, body: unknown) {
  const text = JSON.stringify(body);
  const from = (await kitChoosesAddress(world)) ? randomLoopback() : undefined;
  world.lastHttp = await startFrom(world, from, text);
  const wait = Number(world.lastHttp.headers.get('retry-after'));
  if (world.lastHttp.status === 429 && wait > 0 && wait <= PAIRING_RETRY_LIMIT_S) {
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    world.lastHttp = await startFrom(world, from, text);
  }
  if (world.lastHttp.status === 429) throw new NotDeclared(`a pairing start, throttled by the target (HTTP 429, Retry-After ${world.lastHttp.headers.get('retry-after') ?? 'none'}); run again later${from ? '' : ' or against an IPv4 loopback address'}`);
  return world.lastHttp.json as Record<string, any>;
}

/** POST /v1/cli/pair/start from the loopback address `from` when given (a client address of our choosing). */
async function startFrom(world: SiteWorld, from: string | undefined, body: string): Promise<HttpAnswer> {
  return readAnswer(await postFromAddress(`${world.url}/v1/cli/pair/start`, from, { 'content-type': 'application/json' }, body));
}

When('a command-line tool starts a pairing asking for {string}', async function (this: SiteWorld, scopes: string) {
  this.remembered.set('pairing', await startPairing(this, startBody(list(scopes))));
  this.remembered.set('pairing-scopes', list(scopes));
});

When('a command-line tool starts a {word} pairing asking for {string}', async function (this: SiteWorld, variant: string, scopes: string) {
  this.remembered.set('pairing', await startPairing(this, startBody(list(scopes), variant === 'read-only' ? 'readOnly' : 'admin')));
});

When('{string} approves the pairing for {string} leaving {string} ticked', async function (this: SiteWorld, user: string, site: string, scopes: string) {
  const userCode = startedUserCode(this);
  await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes) });
});

When('{string} tries to approve the pairing company-wide leaving {string} ticked', async function (this: SiteWorld, user: string, scopes: string) {
  const userCode = startedUserCode(this);
  try {
    await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: null, scopes: list(scopes) });
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    if (error instanceof FixturesPartMissing) throw error;
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

When('{string} tries to approve the pairing for {string} leaving {string} ticked', async function (this: SiteWorld, user: string, site: string, scopes: string) {
  const userCode = startedUserCode(this);
  try {
    await this.fixtures.request('POST', `/pairings/${userCode}/approve`, { userId: this.user(user).userId, websiteId: this.site(site).websiteId, scopes: list(scopes) });
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    if (error instanceof FixturesPartMissing) throw error;
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

When('the command-line tool polls', async function (this: SiteWorld) {
  const names = pairingNames();
  const answer = await postJson(this, '/v1/cli/pair/poll', { [names.field('deviceCode')]: started(this, 'deviceCode') });
  const token = answer?.[names.field('token')];
  if (typeof token === 'string' && token) this.remembered.set('polled-token', token);
});

/** The last poll's answer, with the target's names for its status and token fields. */
function pollAnswer(world: SiteWorld) {
  const names = pairingNames();
  const json = (world.lastHttp?.json ?? {}) as Record<string, unknown>;
  return { names, json, status: json[names.field('status')], token: json[names.field('token')] };
}

Then('the poll answers {string} without a token', function (this: SiteWorld, status: string) {
  const { names, json, status: answered, token } = pollAnswer(this);
  assert.equal(answered, names.status(status as PairingStatus), `poll answer (HTTP ${this.lastHttp?.status}): ${JSON.stringify(json)}`);
  assert.equal(token, undefined, `poll answer with a token: ${JSON.stringify(json)}`);
});

Then('the poll answers approved with scopes {string} and website {string}', function (this: SiteWorld, scopes: string, website: string) {
  const { names, json, status, token } = pollAnswer(this);
  assert.equal(status, names.status('approved'), `poll answer (HTTP ${this.lastHttp?.status}): ${JSON.stringify(json)}`);
  assert.equal(typeof token, 'string', `poll answer without a token: ${JSON.stringify(json)}`);
  const granted = names.decodeScopes(json[names.field('scopes')]);
  assert.ok(granted, `poll answer without the granted scopes at ${names.field('scopes')}: ${JSON.stringify(json)}`);
  assert.deepEqual([...granted].sort(), list(scopes).sort());
  // websiteId is the source's own name (§4.1), whatever the target calls the rest.
  assert.equal(json.websiteId, website === 'null' ? null : this.resolve(website));
});

// rule pairing-field-names: the bodies have our names and shapes (spec/schemas/pairing.schema.json).
Then('the response JSON is a {word} of the pairing schema', function (this: SiteWorld, def: string) {
  const validate = sharedAjv().getSchema(`${SPEC_BASE}schemas/pairing.schema.json#/$defs/${def}`);
  assert.ok(validate, `no ${def} in spec/schemas/pairing.schema.json`);
  assert.ok(validate(this.lastHttp?.json), `${JSON.stringify(this.lastHttp?.json)}: ${sharedAjv().errorsText(validate.errors)}`);
});

/** The token the last approved poll returned. */
function polledToken(world: SiteWorld): string {
  const token = world.remembered.get('polled-token');
  assert.ok(typeof token === 'string', 'no poll returned a token');
  return token;
}

When('the polled token is used as connection {string}', function (this: SiteWorld, name: string) {
  const token = polledToken(this);
  this.connections.set(name, { connectionId: '', token, userKey: '', mcp: new McpConnection(this.url, token) });
  this.remembered.set(`token:${name}`, token);
});

When('a client reads the published site with the polled token', async function (this: SiteWorld) {
  const token = polledToken(this);
  this.lastHttp = await readAnswer(await recordedFetch(`${this.url}${pairingNames().deliveryPath()}`, { headers: { authorization: `Bearer ${token}` } }));
  if (this.lastHttp.status === 200) this.remembered.set('delivered', this.lastHttp.json);
});

// §2.7 "cannot write": every way a client could try to write at the delivery address (our decision, with
// the target's pairing names), with the delivery token: PUT, POST and PATCH send the snapshot just read with its site and
// first section renamed, DELETE asks for the site to go. Each must be refused; what changed is checked on the site.
When('a client tries to write to the published site with the polled token by {word}', async function (this: SiteWorld, method: string) {
  const token = polledToken(this);
  const read = structuredClone(this.remembered.get('delivered') ?? {}) as { site?: { name?: string }; pages?: { sections?: { content?: Record<string, unknown> }[] }[] };
  if (read.site) read.site.name = 'Written with a delivery token';
  const content = read.pages?.[0]?.sections?.[0]?.content;
  if (content) for (const key of Object.keys(content)) if (typeof content[key] === 'string') content[key] = 'Written with a delivery token';
  this.lastHttp = await readAnswer(
    await recordedFetch(`${this.url}${pairingNames().deliveryPath()}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
      ...(method === 'DELETE' ? {} : { body: JSON.stringify(read) }),
    }),
  );
});

Then('the HTTP status is a refusal', function (this: SiteWorld) {
  const status = this.lastHttp?.status ?? 0;
  assert.ok(status >= 400 && status < 500, `HTTP ${status}, not a refusal: ${this.lastHttp?.text.slice(0, 300)}`);
});

// ── the approval page in a browser (rule dashboard-connect-lists-scopes) ──────────────────────────────────────

/** The approval form of the page: the form with the scope checkboxes. */
function approvalForm(page: Page): HtmlForm {
  const form = formsOf(page.html, page.url).find((f) => f.inputs.some((i) => i.type === 'checkbox'));
  assert.ok(form, `the approval page ${page.url} (HTTP ${page.status}) has no form with a checkbox to untick: ${page.html.slice(0, 400)}`);
  return form;
}

// §4.1: the verification address the start answered (under the target's pairing names), signed in as the user with the email
// and password the fixtures protocol gave them.
When('{string} opens the approval page of the pairing in a browser', async function (this: SiteWorld, user: string) {
  const verificationUri = started(this, 'verificationUri');
  assert.ok(typeof verificationUri === 'string' && verificationUri, `the pairing start answered no ${pairingNames().field('verificationUri')}`);
  const browser = new Browser(this.url);
  this.remembered.set('browser', browser);
  this.remembered.set('approval-page', await browser.openSignedIn(verificationUri, await this.signInUser(user)));
});

Then('the approval page lists every requested scope with a ticked checkbox to untick it', function (this: SiteWorld) {
  const page = this.remembered.get('approval-page') as Page;
  const boxes = approvalForm(page).inputs.filter((i) => i.type === 'checkbox');
  const missing = (this.remembered.get('pairing-scopes') as string[]).filter((scope) => !boxes.some((b) => b.checked && (b.value === scope || b.label.includes(scope))));
  assert.deepEqual(missing, [], `requested scopes without a ticked checkbox on ${page.url}: ${page.html.slice(0, 600)}`);
});

When('{string} unticks {string} and approves on the page', async function (this: SiteWorld, _user: string, untick: string) {
  const page = this.remembered.get('approval-page') as Page;
  const form = approvalForm(page);
  const ticked = new Set(form.inputs.filter((i) => i.type === 'checkbox' && i.checked && !list(untick).includes(i.value) && !list(untick).some((u) => i.label.includes(u))).map((i) => i.value));
  const button = form.buttons.find((b) => /approve|allow|grant|connect/i.test(b.text));
  assert.ok(button, `the approval form has no approve button: ${form.buttons.map((b) => b.text).join(', ')}`);
  const answered = await (this.remembered.get('browser') as Browser).submit(form, {}, { ticked, button });
  assert.ok(answered.status < 400, `approving on the page answered HTTP ${answered.status}: ${answered.html.slice(0, 300)}`);
});

// ── POST /v1/cli/pair/start per client address (rule pair-start-throttled-per-address) ───────────────────────

/** A start request in the target's names where it declared them, else ours: a throttled start is refused whatever its body. */
function startBodyOrOurs(scopes: string[]): Record<string, unknown> {
  const names = pairingNamesOrOurs();
  return { [names.field('scopes')]: names.encodeScopes(scopes) };
}

const PAIR_START = loadJson<{ pairStart: { perAddress: { limit: number; windowSeconds: number } } }>('limits.json').pairStart;

When('a command-line tool starts pairings from one address until its allowance is spent', async function (this: SiteWorld) {
  // Only where the kit can choose its client address; from the kit's one address elsewhere the check would lock
  // every other pairing scenario out for the window.
  if (!(await kitChoosesAddress(this))) return this.notChecked('pair/start per address (the kit cannot choose its client address: the target is not an IPv4 loopback address, or this machine lets it use 127.0.0.1 only)');
  const from = randomLoopback();
  this.remembered.set('throttled-address', from);
  const body = JSON.stringify(startBodyOrOurs(['site:read']));
  for (let i = 0; i < PAIR_START.perAddress.limit; i++) {
    const answer = await startFrom(this, from, body);
    assert.equal(answer.status, 200, `start ${i + 1} of ${PAIR_START.perAddress.limit} from ${from} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
});

Then('the next start from that address answers 429 with Retry-After and a JSON error, whatever its body', async function (this: SiteWorld) {
  const from = this.remembered.get('throttled-address') as string | undefined;
  if (!from) return;
  for (const body of [JSON.stringify(startBodyOrOurs(['site:read'])), '{ not json']) {
    const answer = await startFrom(this, from, body);
    assert.equal(answer.status, 429, `start past the allowance (body ${body}) answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
    const retryAfter = answer.headers.get('retry-after');
    assert.ok(Number(retryAfter) > 0 && Number(retryAfter) <= PAIR_START.perAddress.windowSeconds, `Retry-After: ${retryAfter}`);
    assert.equal(typeof (answer.json as { error?: unknown } | undefined)?.error, 'object', `no JSON error: ${answer.text.slice(0, 300)}`);
  }
});

Then('a start from another address is answered', async function (this: SiteWorld) {
  const from = this.remembered.get('throttled-address') as string | undefined;
  if (!from) return;
  let other = randomLoopback();
  while (other === from) other = randomLoopback();
  const answer = await startFrom(this, other, JSON.stringify(startBodyOrOurs(['site:read'])));
  assert.equal(answer.status, 200, `a start from ${other} answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
});
