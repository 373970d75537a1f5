// Arranging worlds through the fixtures protocol: tenants, users, roles, settings, connections, clock.
import { Given, When } from '@cucumber/cucumber';
import { McpConnection } from '../../conformance/lib/mcp-client.js';
import type { SiteWorld } from '../support/world.js';

async function addWorld(world: SiteWorld, request: unknown) {
  world.worlds.push(await world.fixtures.world(request));
}

Given('a workspace:', async function (this: SiteWorld, doc: string) {
  await addWorld(this, JSON.parse(doc));
});

Given('a workspace with an owner {string} and a site {string}', async function (this: SiteWorld, owner: string, site: string) {
  await addWorld(this, { users: [{ key: owner }], sites: [{ key: site, members: { [owner]: 'owner' }, published: true }] });
});

async function connect(world: SiteWorld, name: string, userKey: string, request: Record<string, unknown>) {
  const created = await world.fixtures.connection({ userId: world.user(userKey).userId, ...request });
  world.connections.set(name, { connectionId: created.connectionId, token: created.token, userKey, mcp: new McpConnection(world.url, created.token) });
  world.remembered.set(`token:${name}`, created.token);
  world.remembered.set(`created:${name}`, created);
}

const scopeList = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

Given('{string} has a connection {string} to {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  await connect(this, name, user, { websiteId: this.site(site).websiteId, scopes: scopeList(scopes) });
});

Given('{string} has a workspace connection {string} from {string} with scopes {string}', async function (this: SiteWorld, user: string, name: string, site: string, scopes: string) {
  await connect(this, name, user, { websiteId: this.site(site).websiteId, reach: 'workspace', scopes: scopeList(scopes) });
});

Given('{string} has a connection {string}:', async function (this: SiteWorld, user: string, name: string, doc: string) {
  await connect(this, name, user, JSON.parse(this.resolve(doc)));
});

When('the role of {string} on {string} becomes {string}', async function (this: SiteWorld, user: string, site: string, role: string) {
  await this.fixtures.membership(this.site(site).websiteId, this.user(user).userId, role);
});

When('{string} loses access to {string}', async function (this: SiteWorld, user: string, site: string) {
  await this.fixtures.membership(this.site(site).websiteId, this.user(user).userId, null);
});

When('the workspace of {string} changes settings:', async function (this: SiteWorld, user: string, doc: string) {
  await this.fixtures.settings(this.user(user).workspaceId, JSON.parse(doc));
});

When('the clock of the workspace of {string} advances {int} seconds', async function (this: SiteWorld, user: string, seconds: number) {
  await this.fixtures.advanceClock(this.user(user).workspaceId, seconds);
});

When('{string} edits {string} field {string} in the app to {string}', async function (this: SiteWorld, user: string, sectionRef: string, field: string, text: string) {
  const [site] = sectionRef.split('/');
  await this.fixtures.appEdit({ userId: this.user(user).userId, websiteId: this.site(site!).websiteId, sectionId: this.resolve(`{{section:${sectionRef}}}`), field, text });
});

When('{string} approves the plan', async function (this: SiteWorld, user: string) {
  await this.fixtures.decide(this.resolve('{{plan}}'), this.user(user).userId, 'approve');
});

When('{string} tries to approve the plan', async function (this: SiteWorld, user: string) {
  try {
    await this.fixtures.decide(this.resolve('{{plan}}'), this.user(user).userId, 'approve');
    this.remembered.set('decision', 'accepted');
  } catch (error) {
    this.remembered.set('decision', (error as { status?: number }).status ?? 'error');
  }
});

Given('the published state of {string} is remembered', async function (this: SiteWorld, site: string) {
  this.remembered.set(`published:${site}`, (await this.fixtures.siteState(this.site(site).websiteId)).publishedFingerprint);
});
