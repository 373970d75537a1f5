// Steps about a whole site as PortableSiteV1 and the empty site create_site makes (§2.3, §4.3).
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { SiteWorld } from '../support/world.js';
import { pointer } from '../support/json.js';
import { checkableOutput } from '../support/declared.js';

// §4.3: create_site makes an "unpublished draft"; read through the fixtures protocol's site state.
Then('the site remembered as {string} is not published', async function (this: SiteWorld, key: string) {
  const websiteId = this.remembered.get(key);
  assert.equal(typeof websiteId, 'string', `no site id remembered as ${key}`);
  assert.equal((await this.fixtures.siteState(websiteId as string)).status, 'unpublished');
});

/** Every string inside a value (keys excluded). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

// §4.3: a new site carries "the business name only (no invented services, prices, hours, testimonials)": any
// text inside its pages' sections (content and blocks) is the business name. Read in our output shape
// (pages → sections → content, blocks), so only when the target declares it.
Then('the sections in the data at {string} carry no text but {string}', function (this: SiteWorld, pathText: string, expectedText: string) {
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const pages = pointer(this.last.envelope?.data, at);
  assert.ok(Array.isArray(pages), `${path} is not a list of pages: ${JSON.stringify(pages)?.slice(0, 200)}`);
  const businessName = this.resolve(expectedText);
  const sections = pages.flatMap((p: { sections?: { content?: unknown; blocks?: unknown }[] }) => p.sections ?? []);
  const invented = sections.flatMap((s) => texts([s.content, s.blocks])).filter((t) => t.trim() !== '' && t.trim() !== businessName);
  assert.deepEqual(invented, [], `the new site's sections carry text besides the business name "${businessName}"`);
});
