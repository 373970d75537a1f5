// Credits of a workspace, read back through the fixtures protocol (GET /users/{userId}/companies: the company
// as the app's account page shows it), and the image provider's failure (POST …/fail-next-image). They check
// that a generation the provider failed to deliver costs nothing (§4.3 "charged only after delivery", rule
// generate-image-charged-after-delivery), by the balance itself rather than by the tool's own answer.
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { SiteWorld } from '../support/world.js';

async function credits(world: SiteWorld, user: string): Promise<number> {
  const { userId, workspaceId } = world.user(user);
  const company = (await world.fixtures.companies(userId)).companies.find((c) => c.workspaceId === workspaceId);
  assert.ok(company, `the companies of ${user} do not list the workspace ${workspaceId}`);
  return company.credits;
}

When('the credits of the workspace of {string} are remembered', async function (this: SiteWorld, user: string) {
  this.remembered.set(`credits:${user}`, await credits(this, user));
});

When('the image provider fails the next image of the workspace of {string}', async function (this: SiteWorld, user: string) {
  await this.fixtures.failNextImage(this.user(user).workspaceId);
});

function rememberedCredits(world: SiteWorld, user: string): number {
  const before = world.remembered.get(`credits:${user}`);
  assert.equal(typeof before, 'number', `the credits of the workspace of ${user} were not remembered first`);
  return before as number;
}

Then('the workspace of {string} has the remembered credits', async function (this: SiteWorld, user: string) {
  const before = rememberedCredits(this, user);
  assert.equal(await credits(this, user), before, `the workspace had ${before} credits before`);
});

// How much one image costs is our decision (§8 "not shown"): only that a delivered image costs something.
Then('the workspace of {string} has fewer credits than remembered', async function (this: SiteWorld, user: string) {
  const before = rememberedCredits(this, user);
  const now = await credits(this, user);
  assert.ok(now < before, `the workspace has ${now} credits, as many as the ${before} it had before`);
});

// The balance itself (fixtures part companies), e.g. none left after an image that cost exactly what there was.
Then('the workspace of {string} has {int} credits', async function (this: SiteWorld, user: string, expected: number) {
  assert.equal(await credits(this, user), expected);
});
