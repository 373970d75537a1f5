// SSRF checks by canary (rules migrate-ssrf-hardened, import-site-assets-revalidated, kit-no-packet-off-machine):
// whatever a target answered, it must never have connected to one of the kit's canaries. A hit fails the scenario
// with the vectors it names (never with anything the canary sent back).
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import { canaryFromEnvironment, canaryHits, vectorOf } from '../../conformance/lib/canary.js';
import { onLoopback } from '../../conformance/lib/network.js';
import type { SiteWorld } from '../support/world.js';

Then('no canary was hit', async function (this: SiteWorld) {
  const address = canaryFromEnvironment();
  if (!address) throw new Error('SITE_MCP_CANARY is not set: run through `npm run conformance`, which starts the canaries');
  // A target that queues its fetches may make them just after it answered: give it a moment, as a capture would.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const hits = await canaryHits(address, this.startedAt);
  // This scenario's own vectors carry its token; a connection whose request names none (a crawler's /robots.txt, a
  // TLS handshake, the kit website's redirect) is counted too, since a correct target makes none at all.
  const token = this.remembered.get('canary-token');
  const own = hits.filter((h) => token !== undefined && h.path?.includes(`/${String(token)}/`));
  const named = [...new Set(own.map((h) => vectorOf(h)))];
  const others = hits.length - own.length;
  assert.equal(hits.length, 0, `the target connected to the kit's SSRF canaries, non-public addresses it must refuse to fetch (§4.3): ${named.length ? `this scenario's ${named.join(', ')}` : 'none of this scenario\'s own URLs'}${others ? `; ${others} other connection(s) while it ran (a robots.txt, a redirect hop, TLS, or another scenario's)` : ''}`);
  if (!onLoopback(this.url)) {
    this.notChecked('canary hits: the target is not on this machine, so a canary URL leads to its own loopback, not to the kit (its answer was checked)');
  }
});
