// Migration's visual capture (§4.3, rules migrate-capture-then-typed, migrate-capture-queue-counted): the source does
// not say whether a target can capture at all, nor what fidelity's values are, so these steps compare answers of the
// same target: the fidelity a re-sync with mergeIntoWebsiteId reports is, by the source, the typed path's. What a
// capture must give (links kept; pages beyond the 20-page allowance counted as awaiting) is required only when a new
// migration's fidelity differs from it, that is, when the target says it captured.
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import { NotDeclared } from '../../conformance/lib/declaration.js';
import type { SiteWorld } from '../support/world.js';
import { pointer } from '../support/json.js';
import { checkableOutput, requireOutput } from '../support/located.js';
import type { Envelope } from '../../conformance/lib/mcp-client.js';
import { fixturesSupport } from '../../conformance/lib/fixtures-client.js';

function remembered(world: SiteWorld, key: string): unknown {
  assert.ok(world.remembered.has(key), `nothing remembered as ${key}`);
  return world.remembered.get(key);
}

/** Whether the target said it captured: the new migration's fidelity is not the one its typed re-sync reported. */
function saysCaptured(world: SiteWorld, fidelityKey: string, typedKey: string): boolean {
  return JSON.stringify(remembered(world, fidelityKey)) !== JSON.stringify(remembered(world, typedKey));
}

Then('unless the remembered {string} equals the remembered {string}, the data contains {string}', function (this: SiteWorld, fidelity: string, typed: string, text: string) {
  if (!saysCaptured(this, fidelity, typed)) return;
  const data = (this.last.envelope as Envelope).data;
  assert.ok(
    JSON.stringify(data).includes(this.resolve(text)),
    `the migration said fidelity ${JSON.stringify(remembered(this, fidelity))}, not the typed path's ${JSON.stringify(remembered(this, typed))}, yet the site lacks "${text}", the words of a link of the page (a capture keeps links, §4.3)`,
  );
});

Then(
  'unless the remembered {string} equals the remembered {string}, the remembered {string} is at least the remembered {string} minus {int}',
  function (this: SiteWorld, fidelity: string, typed: string, awaitingKey: string, fetchedKey: string, allowance: number) {
    if (!saysCaptured(this, fidelity, typed)) return;
    const awaiting = remembered(this, awaitingKey);
    const fetched = remembered(this, fetchedKey);
    assert.ok(typeof awaiting === 'number' && typeof fetched === 'number', `pagesAwaitingCapture ${JSON.stringify(awaiting)} and pagesFetched ${JSON.stringify(fetched)} are not numbers`);
    assert.ok(
      awaiting >= fetched - allowance,
      `the migration captured (fidelity ${JSON.stringify(remembered(this, fidelity))}) ${fetched} pages with only ${awaiting} awaiting capture: at most ${allowance} may be captured by default, the rest stay queued (§4.3)`,
    );
  },
);

Then(
  'unless the remembered {string} equals the remembered {string}, the remembered {string} is at most the remembered {string} minus {int}',
  function (this: SiteWorld, fidelity: string, typed: string, awaitingKey: string, fetchedKey: string, allowance: number) {
    if (!saysCaptured(this, fidelity, typed)) return;
    const awaiting = remembered(this, awaitingKey);
    const fetched = remembered(this, fetchedKey);
    assert.ok(typeof awaiting === 'number' && typeof fetched === 'number', `pagesAwaitingCapture ${JSON.stringify(awaiting)} and pagesFetched ${JSON.stringify(fetched)} are not numbers`);
    assert.ok(awaiting <= Math.max(0, fetched - allowance), `${awaiting} of ${fetched} pages await capture with an allowance of ${allowance} pages`);
  },
);

// Our list_pages shape (rule migrate-capture-status-listed): how many pages show a status, against a remembered count.
Then('as many items at {string} have {string} {string} as the remembered {string}', function (this: SiteWorld, pathText: string, field: string, value: string, key: string) {
  const path = this.resolve(pathText);
  const items = pointer((this.last.envelope as Envelope).data, requireOutput(this, path));
  assert.ok(Array.isArray(items), `${path} is not an array`);
  const count = items.filter((item) => (item as Record<string, unknown>)?.[field] === value).length;
  assert.equal(count, remembered(this, key), `${count} items at ${path} have ${field} ${value}; the remembered ${key} is ${JSON.stringify(remembered(this, key))}`);
});

// A declared value set (rule migrate-fidelity-values): the value at the path is one of the comma-separated values.
Then('the data at {string} is one of {string}', function (this: SiteWorld, pathText: string, values: string) {
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const value = pointer((this.last.envelope as Envelope).data, at);
  const allowed = values.split(',').map((v) => this.resolve(v.trim()));
  assert.ok(allowed.includes(value as string), `data at ${path} is ${JSON.stringify(value)}, not one of ${allowed.join(', ')}`);
});

// Optional fixtures part no-capture-next-migration: the source says a migration falls back to typed sections when
// capture is unavailable; without the part, the scenario is reported as not checked.
Given('visual capture is unavailable for the next migration of {string}', async function (this: SiteWorld, user: string) {
  if (!fixturesSupport('no-capture-next-migration')) {
    throw new NotDeclared("a migration without visual capture: the target's fixtures do not support no-capture-next-migration");
  }
  await this.fixtures.noCaptureNextMigration(this.user(user).workspaceId);
});

Then('the data at {string} equals the remembered {string}', function (this: SiteWorld, pathText: string, key: string) {
  const path = this.resolve(pathText);
  const value = pointer((this.last.envelope as Envelope).data, requireOutput(this, path));
  assert.deepEqual(value, remembered(this, key), `data at ${path} is ${JSON.stringify(value)}; the remembered ${key} is ${JSON.stringify(remembered(this, key))}`);
});
