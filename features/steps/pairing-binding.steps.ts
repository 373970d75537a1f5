// A pairing belongs to the company whose signed-in person first opened its code (rule
// pairing-bound-to-first-workspace, our decision): another company's owner who learns the code sees no approval form
// for it. The approval page is the one a browser reaches through the start's verification address
// (pairing.steps.ts, "opens the approval page of the pairing in a browser").
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import { formsOf, type Page } from '../support/browser.js';
import type { SiteWorld } from '../support/world.js';

Then('the approval page offers no approval', function (this: SiteWorld) {
  const page = this.remembered.get('approval-page') as Page | undefined;
  assert.ok(page, 'no approval page was opened');
  const approving = formsOf(page.html, page.url).filter((f) => f.inputs.some((i) => i.type === 'checkbox') || f.buttons.some((b) => /approve|allow|grant/i.test(b.text)));
  assert.equal(approving.length, 0, `the approval page ${page.url} (HTTP ${page.status}) offers another company's pairing for approval: ${page.html.slice(0, 400)}`);
});
