// Asserting on what the service recorded, read through the fixtures protocol: activity entries, the draft and
// live state of a site, plans, and connections as the Developers page shows them.
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import { fixturesSupport, type SiteState } from '../../conformance/lib/fixtures-client.js';
import type { SiteWorld } from '../support/world.js';
import { declaredErrorCode, outputPointer } from '../../conformance/lib/declaration.js';
import { pointer } from '../support/json.js';
import { checkableOutput, numberCheckedByValue } from '../support/located.js';
import { loadScopes } from '../../spec/index.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

async function entries(world: SiteWorld, name: string) {
  return (await world.fixtures.activity(world.connection(name).connectionId)).entries;
}
const show = (es: Record<string, unknown>[]) => JSON.stringify(es.map((e) => `${e.name}/${e.outcome}${e.code ? `/${e.code}` : ''}`));

// ── activity ─────────────────────────────────────────────────────────────────────────────────────────────

Then('the activity of {string} has an entry for {string} with outcome {string}', async function (this: SiteWorld, name: string, tool: string, outcome: string) {
  const es = await entries(this, name);
  assert.ok(es.some((e) => e.name === this.resolve(tool) && e.outcome === outcome), `no ${tool}/${outcome} in ${show(es)}`);
});

// The code in an entry is the target's own error code: compared only when the target declared it.
function codeMatches(world: SiteWorld, kind: string): (code: unknown) => boolean {
  const declared = declaredErrorCode(kind);
  if (declared) return (code) => code === declared;
  world.choiceNotDeclared(`the error code for ${kind} in activity (errorCodes.${kind})`);
  return (code) => typeof code === 'string' && code.length > 0;
}

Then('the activity of {string} has an entry for {string} with code {string}', async function (this: SiteWorld, name: string, tool: string, kind: string) {
  const es = await entries(this, name);
  const matches = codeMatches(this, kind);
  assert.ok(es.some((e) => e.name === this.resolve(tool) && matches(e.code)), `no ${tool} with a ${kind} code in ${show(es)}`);
});

Then('the activity of {string} has an entry for {string} with outcome {string} and code {string}', async function (this: SiteWorld, name: string, tool: string, outcome: string, kind: string) {
  const es = await entries(this, name);
  const matches = codeMatches(this, kind);
  assert.ok(es.some((e) => e.name === this.resolve(tool) && e.outcome === outcome && matches(e.code)), `no ${tool}/${outcome} with a ${kind} code in ${show(es)}`);
});

// §2.7: a summary of a customer-record change names the record type and the changed field names only.
Then('the activity entry of {string} for {string} names {string} and the fields {string}', async function (this: SiteWorld, name: string, tool: string, recordType: string, fields: string) {
  const es = await entries(this, name);
  const entry = [...es].reverse().find((e) => e.name === tool && e.outcome === 'ok');
  assert.ok(entry, `no successful ${tool} in ${show(es)}`);
  const summary = String(entry.summary ?? '');
  for (const word of [recordType, ...list(fields)]) assert.ok(summary.includes(word), `the summary "${summary}" does not name ${word}`);
});

Then('the activity of {string} has {int} entries', async function (this: SiteWorld, name: string, count: number) {
  const es = await entries(this, name);
  assert.equal(es.length, count, show(es));
});

Then('the activity of {string} lists {string} in this order', async function (this: SiteWorld, name: string, tools: string) {
  const es = await entries(this, name);
  assert.deepEqual(es.map((e) => e.name), list(tools), show(es));
});

Then('no activity entry of {string} contains {string}', async function (this: SiteWorld, name: string, text: string) {
  const es = await entries(this, name);
  assert.ok(es.length > 0, 'no activity at all: nothing to check');
  const needle = this.resolve(text);
  const hit = es.find((e) => JSON.stringify(e).includes(needle));
  assert.equal(hit, undefined, `an activity entry contains ${text}: ${JSON.stringify(hit)}`);
});

Then('the last activity entry of {string} for {string} records {int} credits spent', async function (this: SiteWorld, name: string, tool: string, credits: number) {
  const es = await entries(this, name);
  const entry = [...es].reverse().find((e) => e.name === tool);
  assert.ok(entry, `no ${tool} in ${show(es)}`);
  assert.strictEqual(entry.creditsSpent, credits, `the entry records ${JSON.stringify(entry.creditsSpent)} credits spent`);
});

Then('the activity of {string} has {int} entries with credits spent', async function (this: SiteWorld, name: string, count: number) {
  const es = await entries(this, name);
  assert.equal(es.filter((e) => Number(e.creditsSpent ?? 0) > 0).length, count, JSON.stringify(es.map((e) => `${e.name}/${e.outcome}/${e.creditsSpent ?? 0}`)));
});

// ── site state ───────────────────────────────────────────────────────────────────────────────────────────

Then('the published state of {string} is unchanged', async function (this: SiteWorld, site: string) {
  const state = await this.fixtures.siteState(this.site(site).websiteId);
  assert.ok(this.remembered.has(`published:${site}`), `the state of ${site} was not remembered first`);
  assert.equal(state.publishedFingerprint, this.remembered.get(`published:${site}`), 'the live snapshot changed');
});

Then('the draft of {string} is unchanged', async function (this: SiteWorld, site: string) {
  const before = this.remembered.get(`state:${site}`) as SiteState | undefined;
  assert.ok(before, `the state of ${site} was not remembered first`);
  const state = await this.fixtures.siteState(this.site(site).websiteId);
  assert.equal(state.siteRevision, before.siteRevision, 'the site revision changed');
  assert.equal(state.draftFingerprint, before.draftFingerprint, 'the draft changed');
});

// Site revisions are read only relative to an earlier read, never as absolute values (§2.6 "pinned revision"
// shows no numbering: a target may start at 0 and move by more than one per change). The last revision seen of a
// site is the remembered state's until a step below reads a newer one.
async function siteRevision(world: SiteWorld, site: string): Promise<number> {
  return (await world.fixtures.siteState(world.site(site).websiteId)).siteRevision;
}

function lastSeenRevision(world: SiteWorld, site: string): number {
  const state = world.remembered.get(`state:${site}`) as SiteState | undefined;
  assert.ok(state, `the state of ${site} was not remembered first`);
  // A revision seen since counts only while the state it followed is still the one remembered.
  const seen = world.remembered.get(`revision:${site}`) as { after: SiteState; revision: number } | undefined;
  return seen?.after === state ? seen.revision : state.siteRevision;
}

// Rule content-write-bumps-revision: every successful draft change increases the site revision.
Then('the site revision of {string} has moved on', async function (this: SiteWorld, site: string) {
  const [before, now] = [lastSeenRevision(this, site), await siteRevision(this, site)];
  assert.ok(now > before, `the site revision of ${site} did not increase: ${before} before, ${now} now`);
  this.remembered.set(`revision:${site}`, { after: this.remembered.get(`state:${site}`), revision: now });
});

Then('the site revision of {string} has not moved', async function (this: SiteWorld, site: string) {
  const [before, now] = [lastSeenRevision(this, site), await siteRevision(this, site)];
  assert.equal(now, before, `the site revision of ${site} changed from ${before} to ${now}`);
});

// A revision in an answer is the site's revision as the fixtures protocol reads it now (the field is our shape:
// read only where declared).
Then('the data at {string} equals the site revision of {string}', async function (this: SiteWorld, pathText: string, site: string) {
  const path = this.resolve(pathText);
  if (this.last.envelope?.ok && numberCheckedByValue(this, path, await siteRevision(this, site), `the site revision of ${site}`)) return;
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const now = await siteRevision(this, site);
  assert.deepEqual(pointer(this.last.envelope?.data, at), now, `data at ${path} is not the site revision of ${site} (${now})`);
});

// §4.3: a merge "takes a restore point first": a restore point of the site holds the draft as it was just before
// the merge (the state remembered then), read through the fixtures protocol's optional part restore-points. Where
// the import's answer names its restore point (our output shape, or declared), it is that one.
Then('{string} has a restore point of the remembered draft', async function (this: SiteWorld, site: string) {
  const before = this.remembered.get(`state:${site}`) as SiteState | undefined;
  assert.ok(before, `the state of ${site} was not remembered first`);
  if (!fixturesSupport('restore-points')) {
    this.notChecked("a site's restore points: the target's fixtures do not support restore-points");
    return;
  }
  const { restorePoints } = await this.fixtures.restorePoints(this.site(site).websiteId);
  const saved = restorePoints.filter((r) => r.draftFingerprint === before.draftFingerprint);
  assert.ok(saved.length > 0, `no restore point of ${site} holds the draft as it was before the merge: ${JSON.stringify(restorePoints)}`);
  const at = this.last.tool === 'import_site' && this.last.envelope?.ok ? outputPointer('import_site', '/restorePointId') : undefined;
  if (at === undefined) return;
  const named = pointer(this.last.envelope?.data, at);
  assert.ok(saved.some((r) => r.restorePointId === named), `the merge answered restore point ${JSON.stringify(named)}, which does not hold the draft as it was before the merge: ${JSON.stringify(restorePoints)}`);
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

// Whether search engines may index the site (§4.3 prepare_search_visibility), as the fixtures' site state tells it
// (searchVisible; §4.3 names no field of get_site_overview for it).
async function searchVisibility(world: SiteWorld, site: string, visible: boolean): Promise<void> {
  const state = await world.fixtures.siteState(world.site(site).websiteId);
  if (typeof state.searchVisible !== 'boolean') return world.notChecked("a site's search visibility (searchVisible in the fixtures' site state)");
  assert.equal(state.searchVisible, visible, `the site ${site} is ${state.searchVisible ? 'visible to' : 'hidden from'} search engines`);
}
Then('the site {string} is visible to search engines', function (this: SiteWorld, site: string) {
  return searchVisibility(this, site, true);
});
Then('the site {string} is hidden from search engines', function (this: SiteWorld, site: string) {
  return searchVisibility(this, site, false);
});

// ── plans ────────────────────────────────────────────────────────────────────────────────────────────────

Then('the plan is garbage-collected', async function (this: SiteWorld) {
  const workspaceId = this.worlds[0]!.workspaceId;
  await assert.rejects(this.fixtures.plan(this.resolve('{{plan}}'), workspaceId), (e: { status?: number }) => e.status === 404);
});

// The plan's state as the target names it (the fixtures protocol passes the target's own state name through;
// rule state-names compares it with ours only for a target that adopts that decision).
Then('the plan is in state {string}', async function (this: SiteWorld, state: string) {
  const workspaceId = this.worlds[0]!.workspaceId;
  assert.equal((await this.fixtures.plan(this.resolve('{{plan}}'), workspaceId)).status, state);
});

Then('the approval was refused', function (this: SiteWorld) {
  assert.notEqual(this.remembered.get('decision'), 'accepted');
});

// ── companies (§2.7: read back what a confirmed company plan created) ──────────────────────────────────────

async function companiesNamed(world: SiteWorld, user: string, name: string) {
  return (await world.fixtures.companies(world.user(user).userId)).companies.filter((c) => c.companyName === name);
}

Then('{string} owns no company named {string}', async function (this: SiteWorld, user: string, name: string) {
  assert.deepEqual(await companiesNamed(this, user, name), []);
});

Then('{string} owns exactly one company named {string}: plan free, no credits, no website, no trial, no monthly credit reset, no payment-provider object', async function (this: SiteWorld, user: string, name: string) {
  const found = await companiesNamed(this, user, name);
  assert.equal(found.length, 1, `${found.length} companies named ${name}`);
  const { plan, credits, websites, trial, monthlyCreditReset, paymentProviderObject } = found[0]!;
  assert.deepEqual({ plan, credits, websites, trial, monthlyCreditReset, paymentProviderObject }, { plan: 'free', credits: 0, websites: 0, trial: false, monthlyCreditReset: false, paymentProviderObject: false });
});

// How many websites a workspace has, as the app's account page shows it (fixtures companies): what a race for the
// last site slot left, read without list_sites' output fields, which the source does not name (rule
// create-site-limit-twice). A target whose handshake does not list companies has it reported as not checked.
Then('the workspace of {string} has {count} websites', async function (this: SiteWorld, user: string, count: string) {
  if (!fixturesSupport('companies')) {
    this.notChecked('the websites of a workspace (fixtures part companies)');
    return;
  }
  const { userId, workspaceId } = this.user(user);
  const company = (await this.fixtures.companies(userId)).companies.find((c) => c.workspaceId === workspaceId);
  assert.ok(company, `the companies of ${user} do not list the workspace ${workspaceId}`);
  assert.equal(company.websites, this.count(count), `the workspace of ${user} has ${company.websites} websites`);
});

// ── connections as the Developers page shows them ───────────────────────────────────────────────────────

Then('the connection view of {string} shows preset {string}', async function (this: SiteWorld, name: string, label: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  assert.equal(view.presetLabel, label);
});

Then('the connection view of {string} shows reach {string}', async function (this: SiteWorld, name: string, reach: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  assert.equal(view.reach, reach);
});

Then('the connection view of {string} lists scopes {string}', async function (this: SiteWorld, name: string, scopes: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  assert.deepEqual([...view.scopes].sort(), list(scopes).sort());
});

Then('the connection view of {string} lists at least the scopes {string}', async function (this: SiteWorld, name: string, scopes: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  for (const scope of list(scopes)) assert.ok(view.scopes.includes(scope), `${scope} is not among ${view.scopes.join(', ')}`);
});

// §2.2's defaults: what is "on" and "always on", and one scope whose default is not shown; nothing else.
Then('the connection view of {string} lists no scopes but {string}', async function (this: SiteWorld, name: string, scopes: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  const allowed = new Set(list(scopes));
  const beyond = view.scopes.filter((scope) => !allowed.has(scope));
  assert.deepEqual(beyond, [], `the connection holds ${beyond.join(', ')} besides ${scopes}`);
});

Then('the connection view of {string} does not list the scopes {string}', async function (this: SiteWorld, name: string, scopes: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  const listed = list(scopes).filter((scope) => view.scopes.includes(scope));
  assert.deepEqual(listed, [], `${listed.join(', ')} among ${view.scopes.join(', ')}`);
});

// Every scope of §2.2 (spec/scopes.json holds the table's names).
Then('the connection view of {string} does not list every scope', async function (this: SiteWorld, name: string) {
  const view = await this.fixtures.connectionView(this.connection(name).connectionId);
  const missing = loadScopes().scopes.map((s) => s.name).filter((s) => !view.scopes.includes(s));
  assert.ok(missing.length > 0, `the connection lists every scope: ${view.scopes.join(', ')}`);
});

Then('the token of {string} starts with a prefix ending in {string}', function (this: SiteWorld, name: string, suffix: string) {
  const token = this.connection(name).token;
  // §2.1: "a fixed prefix ending in `_live_`": what comes before it is the target's own (letters, digits, …).
  const prefix = /^[^\s]+?_live_/.exec(token)?.[0];
  assert.ok(prefix?.endsWith(suffix), `token ${token.slice(0, 12)}… has no prefix ending in ${suffix}`);
});

Then('no read of the connection {string} returns its token', async function (this: SiteWorld, name: string) {
  const c = this.connection(name);
  const created = this.remembered.get(`created:${name}`) as { token?: string } | undefined;
  assert.equal(created?.token, c.token, 'the creation answer carries the plaintext token once');
  // Read twice: neither read (nor a second one) may return the secret or a long part of it.
  for (let i = 0; i < 2; i++) {
    const view = await this.fixtures.connectionView(c.connectionId);
    const text = JSON.stringify(view);
    assert.ok(!text.includes(c.token), 'the connection view contains the plaintext token');
    assert.ok(!text.includes(c.token.slice(-16)), 'the connection view contains the end of the secret');
    assert.ok(c.token.startsWith(String(view.tokenPrefix)), 'the display prefix must be a prefix of the token');
    assert.ok(String(view.tokenPrefix).length < 20, 'the display prefix must be short');
  }
});
