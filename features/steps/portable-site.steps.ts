// Steps about a whole site as PortableSiteV1 and the empty site create_site makes (§2.3, §4.3).
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { NotDeclared } from '../../conformance/lib/declaration.js';
import { kitAsset } from '../../conformance/lib/test-website.js';
import { requireImplemented } from '../support/tools-built.js';
import type { SiteWorld } from '../support/world.js';
import { pointer, stringsIn, subsetMismatch } from '../support/json.js';
import { checkableOutput } from '../support/located.js';
import { exportedSnapshot, importedWebsiteId, snapshotContents, type Snapshot } from '../../conformance/lib/portable-site.js';

// §4.3: create_site makes an "unpublished draft"; read through the fixtures protocol's site state.
Then('the site remembered as {string} is not published', async function (this: SiteWorld, key: string) {
  const websiteId = this.remembered.get(key);
  assert.equal(typeof websiteId, 'string', `no site id remembered as ${key}`);
  assert.equal((await this.fixtures.siteState(websiteId as string)).status, 'unpublished');
});

// §4.3: a new site carries "the business name only (no invented services, prices, hours, testimonials)": any
// text inside its pages' sections (content and blocks) is the business name. Read in the snapshot its export
// answers, found by meaning (below), in the format the kit's own import_site arguments use.
Then('the sections of the PortableSiteV1 snapshot in the data carry no text but {string}', function (this: SiteWorld, expectedText: string) {
  const snapshot = answeredSnapshot(this);
  const pages = Array.isArray(snapshot.pages) ? snapshot.pages : [];
  const businessName = this.resolve(expectedText);
  const sections = pages.flatMap((p) => (Array.isArray(p?.sections) ? (p.sections as { content?: unknown; blocks?: unknown }[]) : []));
  const invented = [...stringsIn(sections.map((s) => [s.content, s.blocks]))].filter((t) => t.trim() !== '' && t.trim() !== businessName);
  assert.deepEqual(invented, [], `the new site's sections carry text besides the business name "${businessName}"`);
});

// §2.3: the snapshot contains the site's services; a new site has none (§4.3 "no invented services").
Then('the PortableSiteV1 snapshot in the data lists no services', function (this: SiteWorld) {
  const { services } = answeredSnapshot(this) as { services?: unknown };
  assert.ok(services === undefined || (Array.isArray(services) && services.length === 0), `the new site's snapshot lists services: ${JSON.stringify(services).slice(0, 300)}`);
});

/** A pattern for a key form of §2.3 ("<page>/<section>", "<page>/<section>#<field>"): each <part> one or more characters but / and #. */
function keyForm(form: string): RegExp {
  const parts = form.split(/(<[a-z]+>)/).filter(Boolean).map((p) => (/^<[a-z]+>$/.test(p) ? '[^/#]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

// §2.3 gives the form of a section's key, `<page>/<section>`, and nothing of how a new section's key is chosen.
Then('the data at {string} is an externalKey of the form {string}', function (this: SiteWorld, pathText: string, form: string) {
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const key = pointer(this.last.envelope?.data, at);
  assert.ok(typeof key === 'string' && keyForm(form).test(key), `data at ${path} is ${JSON.stringify(key)}, not a key of the form ${form} (§2.3)`);
});

// ── the snapshot an export answers (§2.3, §9.1) ────────────────────────────────────────────────────────────────
// Found by meaning wherever it sits in data (the root included): the object that names PortableSiteV1. What §2.3
// says of it is then checked in the format the kit's own import_site arguments use (pages → sections → externalKey,
// content, layout, rev; contact; analytics): §2.3 makes PortableSiteV1 one format, produced by export_site and
// consumed by import_site, and the kit's input shapes are a prerequisite of the run (conformance/docs/declaration.md, "Prerequisite: our tool input schemas").

function answeredSnapshot(world: SiteWorld): Snapshot {
  const data = world.last.envelope?.data;
  const found = exportedSnapshot(data);
  assert.ok(found && typeof found === 'object', `the answer of ${world.last.tool} holds no snapshot that names PortableSiteV1 (§2.3, §9.1): ${JSON.stringify(data ?? null).slice(0, 300)}`);
  return found;
}

Then('the data holds a PortableSiteV1 snapshot', function (this: SiteWorld) {
  answeredSnapshot(this);
});

// §2.3: "Sections are identified for merging by an externalKey (form <page>/<section>) ... A section carries
// content, layout and a revision number rev." The site of a world has pages with sections, so there are some.
Then('every section of that snapshot has an externalKey of the form {string}, content, layout and a revision number rev', function (this: SiteWorld, form: string) {
  const snapshot = answeredSnapshot(this);
  const pages = Array.isArray(snapshot.pages) ? snapshot.pages : [];
  const sections = pages.flatMap((p) => (Array.isArray(p?.sections) ? (p.sections as Record<string, unknown>[]) : []));
  assert.ok(sections.length > 0, `the snapshot lists no page with a section: ${JSON.stringify(snapshot).slice(0, 300)}`);
  const pattern = keyForm(form);
  for (const section of sections) {
    const shown = JSON.stringify(section).slice(0, 200);
    assert.ok(typeof section.externalKey === 'string' && pattern.test(section.externalKey), `a section's externalKey is not of the form ${form}: ${shown}`);
    assert.ok(section.content && typeof section.content === 'object', `a section carries no content: ${shown}`);
    assert.ok(section.layout && typeof section.layout === 'object', `a section carries no layout: ${shown}`);
    assert.ok(Number.isInteger(section.rev), `a section carries no revision number rev: ${shown}`);
  }
});

Then('the PortableSiteV1 snapshot in the data matches:', function (this: SiteWorld, doc: string) {
  const mismatch = subsetMismatch(answeredSnapshot(this), JSON.parse(this.resolve(doc)));
  assert.equal(mismatch, undefined, `the snapshot: ${mismatch}`);
});

Then('the PortableSiteV1 snapshot in the data contains {string}', function (this: SiteWorld, text: string) {
  assert.ok(JSON.stringify(answeredSnapshot(this)).includes(JSON.stringify(this.resolve(text)).slice(1, -1)), `the snapshot lacks ${text}`);
});

// ── export → import → export (rule portable-site-round-trip) ──────────────────────────────────────────────────
// PortableSiteV1 is what export_site produces and import_site consumes (§2.3): a site imported from a snapshot
// exports what the snapshot held, compared by conformance/lib/portable-site.ts (what §2.3 lists, not ids).

async function importAsNewSite(world: SiteWorld, name: string, snapshot: Snapshot) {
  // A target without import_site has the round trip not checked, never failed (§4.3 lists it; tool-catalogue-exact).
  await requireImplemented(world, 'import_site');
  const { mcp } = world.connection(name);
  const args = { snapshot };
  const { envelope } = await mcp.callTool('import_site', args);
  world.last = { tool: 'import_site', connection: name, args, envelope };
  assert.equal(envelope.ok, true, `import_site failed: ${JSON.stringify(envelope.error)}`);
  const websiteId = await importedWebsiteId(mcp, envelope.data, world.worlds.flatMap((w) => Object.values(w.sites).flatMap((s) => (s ? [s.websiteId] : []))));
  assert.ok(websiteId, `import_site answered no website id that export_site takes: ${JSON.stringify(envelope.data).slice(0, 300)}`);
  world.remembered.set('round-trip-snapshot', snapshot);
  world.remembered.set('round-trip-site', websiteId);
}

When('{string} imports this snapshot as a new site:', async function (this: SiteWorld, name: string, doc: string) {
  await importAsNewSite(this, name, JSON.parse(this.resolve(doc)) as Snapshot);
});

When('{string} imports that export as a new site', async function (this: SiteWorld, name: string) {
  const exported = this.remembered.get('round-trip-export') as Snapshot | undefined;
  assert.ok(exported, 'no export to import: the export of the imported site was not read yet');
  const { exportedAt: _set, ...snapshot } = exported; // set by export_site, ignored on import
  await importAsNewSite(this, name, snapshot as Snapshot);
});

Then('the export of that site by {string} carries everything the imported snapshot held', async function (this: SiteWorld, name: string) {
  const websiteId = this.remembered.get('round-trip-site') as string;
  const { envelope } = await this.connection(name).mcp.callTool('export_site', { websiteId });
  this.last = { tool: 'export_site', connection: name, args: { websiteId }, envelope };
  assert.equal(envelope.ok, true, `export_site failed: ${JSON.stringify(envelope.error)}`);
  const exported = exportedSnapshot(envelope.data);
  assert.ok(exported, `the export holds no PortableSiteV1 snapshot: ${JSON.stringify(envelope.data).slice(0, 300)}`);
  assert.deepEqual(snapshotContents(exported), snapshotContents(this.remembered.get('round-trip-snapshot') as Snapshot), 'the export differs from the snapshot the site was imported from');
  this.remembered.set('round-trip-export', exported);
});

// ── an asset through import and export (rules portable-site-assets-carried, import-site-assets-revalidated) ───
// The kit's website serves each scenario an image of its own over https (conformance/lib/test-website.ts, fixtures
// part fetch-allowlist-tls; without it these scenarios are not checked). import_site must fetch it (§4.3 "asset
// URLs are fetched ... server-side") and keep it as a bundle upload keeps a file: once the kit's website stops
// serving it, the URL the export names for it still serves exactly those bytes, and that URL is not the kit's.

interface KitImage { token: string; url: string }

function kitImage(world: SiteWorld): KitImage {
  const image = world.remembered.get('kit-image') as KitImage | undefined;
  assert.ok(image, 'no image of the kit website in this scenario');
  return image;
}

/** The kit website's own address for its questions (/__kit/…), plain http. */
function kitWebsite(): string {
  const url = process.env.SITE_MCP_TEST_WEBSITE_URL;
  if (!url) throw new NotDeclared('the kit website: the target\'s fixtures do not support fetch-allowlist');
  return url;
}

Given('the kit website serves an image of this scenario over https', function (this: SiteWorld) {
  const https = process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;
  if (!https) throw new NotDeclared('the kit website over https: the target\'s fixtures do not support fetch-allowlist-tls');
  kitWebsite();
  const token = `img-${this.randomWord(12)}`;
  this.remembered.set('kit-image', { token, url: `${https}/asset/${token}.png` });
  this.remembered.set('kit-image-url', `${https}/asset/${token}.png`);
});

// An SVG that draws a form posting elsewhere (rule served-files-no-forms-no-framing, our decision).
Given('the kit website serves an SVG image of this scenario over https', function (this: SiteWorld) {
  const https = process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;
  if (!https) throw new NotDeclared('the kit website over https: the target\'s fixtures do not support fetch-allowlist-tls');
  kitWebsite();
  const token = `svg-${this.randomWord(12)}`;
  this.remembered.set('kit-image', { token, url: `${https}/asset/${token}.svg` });
  this.remembered.set('kit-image-url', `${https}/asset/${token}.svg`);
});

Then('the address that export names for the asset {string} serves it with no form target and no framing', async function (this: SiteWorld, key: string) {
  const exported = this.remembered.get('round-trip-export') as Snapshot | undefined;
  assert.ok(exported, 'no export read yet: the export of the imported site comes first');
  const asset = (Array.isArray(exported.assets) ? (exported.assets as Record<string, unknown>[]) : []).find((a) => a.key === key);
  assert.ok(asset && typeof asset.url === 'string' && URL.canParse(asset.url), `the export lists no asset "${key}" with a URL`);
  const res = await fetch(asset.url, { signal: AbortSignal.timeout(10_000) });
  const body = await res.text();
  assert.equal(res.status, 200, `the asset's address ${asset.url} answered HTTP ${res.status}`);
  assert.ok(body.includes(kitImage(this).token), `the asset's address ${asset.url} does not serve the kit's SVG`);
  const directives = new Map((res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().toLowerCase().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!, values.join(' ')]));
  const disposition = res.headers.get('content-disposition') ?? '';
  // An attachment is never rendered on the target's origin; an SVG shown inline must not post forms or be framed.
  if (/^\s*attachment/i.test(disposition)) return;
  assert.equal(directives.get('form-action'), "'none'", `${asset.url} is served inline without form-action 'none' (Content-Security-Policy: ${res.headers.get('content-security-policy')})`);
  assert.equal(directives.get('frame-ancestors'), "'none'", `${asset.url} is served inline without frame-ancestors 'none' (Content-Security-Policy: ${res.headers.get('content-security-policy')})`);
});

Then('the kit website was asked for that image', async function (this: SiteWorld) {
  const path = new URL(kitImage(this).url).pathname;
  const requested = (await (await fetch(`${kitWebsite()}/__kit/requested`, { signal: AbortSignal.timeout(10_000) })).json()) as string[];
  assert.ok(requested.includes(path), `the target never fetched the asset ${path} from the kit website (§4.3: asset URLs are fetched server-side)`);
});

When('the kit website stops serving that image', async function (this: SiteWorld) {
  const { token } = kitImage(this);
  const forgot = await fetch(`${kitWebsite()}/__kit/forget/${token}`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(forgot.status, 200, 'the kit website did not forget the image');
  const gone = await fetch(`${kitWebsite()}/asset/${token}.png`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(gone.status, 404, 'the kit website still serves the image it was told to forget');
});

Then('that export lists the asset {string} at an address of the site that serves the image the kit website served', async function (this: SiteWorld, key: string) {
  const exported = this.remembered.get('round-trip-export') as Snapshot | undefined;
  assert.ok(exported, 'no export read yet: the export of the imported site comes first');
  const assets = Array.isArray(exported.assets) ? (exported.assets as Record<string, unknown>[]) : [];
  const asset = assets.find((a) => a.key === key);
  assert.ok(asset, `the export lists no asset "${key}" (assets: ${JSON.stringify(assets).slice(0, 300)})`);
  assert.equal(typeof asset.url, 'string', `the exported asset "${key}" has no URL (§2.3: assets are referenced by URL)`);
  let url: URL;
  try {
    url = new URL(asset.url as string);
  } catch {
    assert.fail(`the exported asset "${key}" has no valid URL: ${JSON.stringify(asset.url)}`);
  }
  const problem = await servesKitImage(this, url);
  assert.ok(!problem, `the exported asset "${key}": ${problem}`);
});

// A merge's listed asset (rule import-merge-adds-assets, our decision): the export in the last answer lists it
// exactly once, with the alt it was pushed with, at an address of the site that serves the kit's image.
Then('the export in the data lists the asset {string} once, with alt {string}, at an address of the site that serves the image the kit website served', async function (this: SiteWorld, keyText: string, altText: string) {
  const [key, alt] = [this.resolve(keyText), this.resolve(altText)];
  const exported = exportedSnapshot(this.last.envelope?.data);
  assert.ok(exported, `the answer holds no PortableSiteV1 snapshot: ${JSON.stringify(this.last.envelope?.data).slice(0, 300)}`);
  const assets = Array.isArray(exported.assets) ? (exported.assets as Record<string, unknown>[]) : [];
  const listed = assets.filter((a) => a.key === key);
  assert.equal(listed.length, 1, `the export lists the asset "${key}" ${listed.length} times, not once (assets: ${JSON.stringify(assets).slice(0, 300)})`);
  const asset = listed[0]!;
  assert.equal(asset.alt, alt, `the exported asset "${key}" has alt ${JSON.stringify(asset.alt)}, not the one it was pushed with`);
  assert.ok(typeof asset.url === 'string' && URL.canParse(asset.url), `the exported asset "${key}" has no valid URL: ${JSON.stringify(asset.url)}`);
  const problem = await servesKitImage(this, new URL(asset.url));
  assert.ok(!problem, `the exported asset "${key}": ${problem}`);
});

/** Why `url` is not the site's own copy of the kit's image (undefined when it is): the kit's URL, or other bytes. */
async function servesKitImage(world: SiteWorld, url: URL): Promise<string | undefined> {
  const kitOrigins = [kitWebsite(), kitImage(world).url].map((u) => new URL(u).origin);
  if (kitOrigins.includes(url.origin)) return `${url.href} is the kit website's own URL: hotlinked, not fetched and kept (rule import-site-assets-revalidated)`;
  const served = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch((error: Error) => error);
  if (served instanceof Error) return `${url.href} cannot be fetched (${served.message})`;
  const bytes = Buffer.from(await served.arrayBuffer());
  if (served.status !== 200) return `${url.href} answered ${served.status}`;
  if (!bytes.equals(kitAsset(kitImage(world).token))) return `${url.href} does not serve the image the kit website served (${bytes.length} bytes), now that the kit website no longer serves it`;
  return undefined;
}

// An image named inside section content (§4.3 "asset URLs are fetched"): whatever the export calls it, one of the
// assets it lists is the site's copy of it, and the kit's URL appears nowhere in it.
Then('the export in the data keeps the image the kit website served, at an address of the site', async function (this: SiteWorld) {
  const exported = exportedSnapshot(this.last.envelope?.data);
  assert.ok(exported, `the answer holds no PortableSiteV1 snapshot: ${JSON.stringify(this.last.envelope?.data).slice(0, 300)}`);
  assert.ok(!JSON.stringify(exported).includes(kitImage(this).url), 'the export still names the kit website\'s image URL: hotlinked, not fetched and kept (rule import-site-assets-revalidated)');
  const assets = Array.isArray(exported.assets) ? (exported.assets as Record<string, unknown>[]) : [];
  const problems: string[] = [];
  for (const asset of assets.slice(0, 20)) {
    if (typeof asset.url !== 'string' || !URL.canParse(asset.url)) continue;
    const problem = await servesKitImage(this, new URL(asset.url));
    if (!problem) return;
    problems.push(problem);
  }
  assert.fail(`no asset of the export serves the image the kit website served: ${problems.join('; ') || 'it lists none'}`);
});
