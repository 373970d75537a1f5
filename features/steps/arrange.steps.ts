// Arranging worlds through the fixtures protocol: tenants, users, roles, settings, connections, clock, edits
// made in the app and decisions made by a signed-in owner. Every fixture call that fails fails the step.
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { FixturesError, FixturesPartMissing, fixturesSupport, type ConnectionCreated, type ConnectionRequest, type WorkspaceSettingsRequest, type WorldRequest } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';
import { adopts, declaredNotImplemented, learnSectionVocabulary, NotDeclared, NotImplemented, sectionVocabulary } from '../../conformance/lib/declaration.js';
import { targetLimitValues } from '../../conformance/lib/limit-values.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

// The rest of the scenario checks values of one of our decision rules (spec/rules, decision: true): it runs
// only for a target whose declaration adopts that rule, and is reported as not checked otherwise.
// A part of the interface the target's declaration says it has not built yet (notImplemented.parts): the rest of
// the scenario is reported as not checked (not implemented), never failed.
Given('the target offers {string}', function (this: SiteWorld, part: string) {
  if (declaredNotImplemented('parts', part)) throw new NotImplemented(`${part} (notImplemented in the declaration)`);
});

Given('the target adopts the decision {string}', function (this: SiteWorld, rule: string) {
  if (!adopts(rule)) throw new NotDeclared(`${rule} (adopts)`);
});

// The values of the limits §8 does not show (throttles, site count per plan, import cap, image cost), for the
// {{limit:…}} placeholders after it: ours for a target that adopts limit-values, else the target's own from its
// fixtures (part limits); without either the rest of the scenario is not checked (conformance/lib/limit-values.ts).
Given('the target\'s limit values are known', async function (this: SiteWorld) {
  this.limitValues = await targetLimitValues(this.fixtures);
});

// A scenario shows its rule only with limit values in some relation (a race needs a throttle of two or more, a
// throttle must be reached before the site limit): "A <= B, C < D", each side a count ({{limit:…}} or an integer).
// Values that do not allow it leave the scenario nothing to show: the rest is not checked, never failed.
Given(/^the target's limit values allow this scenario: (.+)$/, function (this: SiteWorld, conditions: string) {
  for (const condition of conditions.split(',')) {
    const match = /^\s*(\S+)\s*(<=|<)\s*(\S+)\s*$/.exec(condition);
    if (!match) throw new Error(`"${condition}" is not a condition of the form A <= B or A < B`);
    const [, left, op, right] = match as unknown as [string, string, string, string];
    const [a, b] = [this.count(left), this.count(right)];
    if (!(op === '<' ? a < b : a <= b)) throw new NotDeclared(`limit values this scenario can show its rule with (${condition.trim()}: ${a} ${op} ${b} is false with the target's values)`);
  }
});

// A target that serves passwords on demand hashes a password only for the users a scenario signs in as
// (world.signInUser): most world users never sign in, and each password is a deliberately slow hash.
async function addWorld(world: SiteWorld, request: WorldRequest) {
  const answer = await world.fixtures.world(fixturesSupport('passwords-on-demand') ? { ...request, passwordsOnDemand: true } : request);
  learnSectionVocabulary(answer.sectionVocabulary);
  world.worlds.push(answer);
}

Given('a workspace:', async function (this: SiteWorld, doc: string) {
  await addWorld(this, JSON.parse(this.resolve(doc)) as WorldRequest);
});

Given('a workspace with an owner {string} and a site {string}', async function (this: SiteWorld, owner: string, site: string) {
  await addWorld(this, { users: [{ key: owner }], sites: [{ key: site, members: { [owner]: 'owner' }, published: true }] });
});

async function connect(world: SiteWorld, name: string, userKey: string, request: Omit<ConnectionRequest, 'userId'>): Promise<ConnectionCreated> {
  const created = await world.fixtures.connection({ userId: world.user(userKey).userId, ...request });
  world.connections.set(name, { connectionId: created.connectionId, token: created.token, userKey, mcp: new McpConnection(world.url, created.token) });
  world.remembered.set(`token:${name}`, created.token);
  world.remembered.set(`created:${name}`, created);
  return created;
}

Given('{string} has a connection {string} to {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  await connect(this, name, user, { websiteId: this.site(site).websiteId, scopes: list(scopes) });
});

Given('{string} has a connection {string} to {string} with preset {string}', async function (this: SiteWorld, user: string, name: string, site: string, preset: string) {
  await connect(this, name, user, { websiteId: this.site(site).websiteId, preset });
});

Given('{string} has a workspace connection {string} from {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  await connect(this, name, user, { websiteId: this.site(site).websiteId, reach: 'workspace', scopes: list(scopes) });
});

Given('{string} has a connection {string}:', async function (this: SiteWorld, user: string, name: string, doc: string) {
  await connect(this, name, user, JSON.parse(this.resolve(doc)) as ConnectionRequest);
});

Then('{string} cannot create a connection to {string}', async function (this: SiteWorld, user: string, site: string) {
  await assert.rejects(
    this.fixtures.connection({ userId: this.user(user).userId, websiteId: this.site(site).websiteId }),
    (e) => e instanceof FixturesError && e.code === 'owner_only',
    `${user} must be refused with owner_only when creating a connection to ${site}`,
  );
});

// §9.2 dates when each scope came to exist, and a connection holds only the scopes that existed when it was made;
// whether a request for one that did not exist yet is refused or the scope left out, the source does not say. So
// either will do: refused (4xx), or made without the scope, as its view shows.
When('{string} asks for a connection that cannot hold {string}:', async function (this: SiteWorld, user: string, scope: string, doc: string) {
  const request = JSON.parse(this.resolve(doc)) as Omit<ConnectionRequest, 'userId'>;
  let created: ConnectionCreated;
  try {
    created = await this.fixtures.connection({ userId: this.user(user).userId, ...request });
  } catch (error) {
    if (error instanceof FixturesError && error.status >= 400 && error.status < 500) return;
    throw error;
  }
  const view = await this.fixtures.connectionView(created.connectionId);
  assert.ok(!view.scopes.includes(scope), `the connection was made and holds ${scope}, which did not exist at ${String(request.createdAt)}: ${view.scopes.join(', ')}`);
});

// The fixtures protocol names no code for a bad request (only owner_only): any refusal (4xx with an error) will do.
When('{string} cannot create a connection with reach {string}', async function (this: SiteWorld, user: string, reach: string) {
  await assert.rejects(
    this.fixtures.connection({ userId: this.user(user).userId, reach: reach as ConnectionRequest['reach'] }),
    (e) => e instanceof FixturesError && e.status >= 400 && e.status < 500 && typeof e.code === 'string',
    `reach ${reach} must be refused (4xx with an error)`,
  );
});

When('the role of {string} on {string} becomes {string}', async function (this: SiteWorld, user: string, site: string, role: string) {
  await this.fixtures.membership(this.site(site).websiteId, this.user(user).userId, role);
});

When('{string} loses access to {string}', async function (this: SiteWorld, user: string, site: string) {
  await this.fixtures.membership(this.site(site).websiteId, this.user(user).userId, null);
});

When('the workspace of {string} changes settings:', async function (this: SiteWorld, user: string, doc: string) {
  await this.fixtures.settings(this.user(user).workspaceId, JSON.parse(this.resolve(doc)) as WorkspaceSettingsRequest);
});

When('the clock of the workspace of {string} advances {count} seconds', async function (this: SiteWorld, user: string, seconds: string) {
  await this.fixtures.advanceClock(this.user(user).workspaceId, this.count(seconds));
});

When('the clock of the workspace of {string} advances {int} days', async function (this: SiteWorld, user: string, days: number) {
  await this.fixtures.advanceClock(this.user(user).workspaceId, days * 86_400);
});

// The field is one of the kit's text-field names (heading, body, …), sent in the target's vocabulary.
// A section the scenario found through the tools (an id remembered from get_page), of a site it made.
When('{string} edits the section {string} of the site {string} field {string} in the app to {string}', async function (this: SiteWorld, user: string, section: string, site: string, field: string, text: string) {
  await this.fixtures.appEdit({ userId: this.user(user).userId, websiteId: this.resolve(site), sectionId: this.resolve(section), field: sectionVocabulary('fields', field), text: this.resolve(text) });
});

When('{string} edits {string} field {string} in the app to {string}', async function (this: SiteWorld, user: string, sectionRef: string, field: string, text: string) {
  const [site] = sectionRef.split('/');
  await this.fixtures.appEdit({ userId: this.user(user).userId, websiteId: this.site(site!).websiteId, sectionId: this.resolve(`{{section:${sectionRef}}}`), field: sectionVocabulary('fields', field), text: this.resolve(text) });
});

When('{string} approves the plan', async function (this: SiteWorld, user: string) {
  await this.fixtures.decide(this.resolve('{{plan}}'), this.user(user).userId, 'approve');
});

// "olive" renames the product "main/products/0" in the app to "…" (a product's name, a document's title)
When('{string} renames the {word} {string} in the app to {string}', async function (this: SiteWorld, user: string, kind: string, record: string, text: string) {
  const [site, list, index] = record.split('/') as [string, string, string];
  assert.ok(kind === 'product' || kind === 'document', `a product or a document, not ${kind}`);
  await this.fixtures.recordEdit({ userId: this.user(user).userId, websiteId: this.site(site).websiteId, kind, recordId: this.resolve(`{{record:${site}/${list}/${index}}}`), text });
});

When('the next write of the workspace of {string} fails', async function (this: SiteWorld, user: string) {
  await this.fixtures.failNextWrite(this.user(user).workspaceId);
});

When('the next tool answer in the workspace of {string} is invalid', async function (this: SiteWorld, user: string) {
  await this.fixtures.invalidNextAnswer(this.user(user).workspaceId);
});

When('{string} declines the plan', async function (this: SiteWorld, user: string) {
  await this.fixtures.decide(this.resolve('{{plan}}'), this.user(user).userId, 'decline');
});

When('{string} tries to approve the plan', async function (this: SiteWorld, user: string) {
  try {
    await this.fixtures.decide(this.resolve('{{plan}}'), this.user(user).userId, 'approve');
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    if (error instanceof FixturesPartMissing) throw error;
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

async function rememberState(world: SiteWorld, site: string) {
  const state = await world.fixtures.siteState(world.site(site).websiteId);
  world.remembered.set(`published:${site}`, state.publishedFingerprint);
  world.remembered.set(`state:${site}`, state);
}

Given('the published state of {string} is remembered', async function (this: SiteWorld, site: string) {
  await rememberState(this, site);
});

Given('the state of {string} is remembered', async function (this: SiteWorld, site: string) {
  await rememberState(this, site);
});
