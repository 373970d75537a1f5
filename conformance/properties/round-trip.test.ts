// rule:portable-site-round-trip, over HTTP: PortableSiteV1 is the format export_site produces and import_site
// consumes (§2.3), so a random snapshot imported as a new site exports what it was given (pages, sections with
// their content, layout, hidden flag and blocks, fonts, services, collections, redirects, contact block and
// analytics identifiers), and that export imported again exports the same once more.
//
// Compared is what §2.3 names a snapshot to contain, in our snapshot shape (our input schemas are a prerequisite
// of a run, conformance/docs/declaration.md): not ids, revisions or the export time, which a new site may renumber, and not
// the site's identity or theme, which §2.3 does not list. Assets are compared by key and alt (an export names the
// site's own copy, at an address of its own: rule portable-site-assets-carried): random ones at the kit's https
// website (an image of their own each) when the target takes its test certificate (fixtures part
// fetch-allowlist-tls), none otherwise; the second import fetches them from the first site's export.
//
// Section content needs section types and text fields, which the source does not name (decision section-types):
// with a declared vocabulary the sections and blocks are random; without one they are the target's own sections
// (from the export of a site of the world) shuffled over random pages. Where the new site's id and the snapshot
// sit in the answers is our output shape: read through the declaration where it says so; else the snapshot is the
// object of the export's data that names the format PortableSiteV1 (§9.1), and the new site's id the string of
// the import's data that export_site takes (§4.3 "returns new website id").
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sectionVocabularyIfDeclared } from '../lib/declaration.js';
import { McpConnection } from '../lib/mcp-client.js';
import { exportedSnapshot, importedWebsiteId, snapshotContents as contents, type Snapshot } from '../lib/portable-site.js';
import { params, url, worldWithSite } from './harness.js';

type Json = Record<string, unknown>;
type Section = Snapshot['pages'][number]['sections'][number];

const type = (name: string) => sectionVocabularyIfDeclared('types', name);
const field = (name: string) => sectionVocabularyIfDeclared('fields', name);
const vocabulary = type('hero') && type('text') && field('heading') && field('subheading') && field('body') ? { hero: type('hero')!, text: type('text')!, heading: field('heading')!, subheading: field('subheading')!, body: field('body')! } : undefined;

// Plain text only (no < or >, which section schemas refuse), never empty.
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,!?'-]{0,30}$/);
const key = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const keyed = <T>(arb: fc.Arbitrary<T & { key: string }>, max: number) => fc.uniqueArray(arb, { maxLength: max, selector: (x) => x.key });
/** The kit website's https origin, when the target trusts it (cli.ts). */
const kitHttps = process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;

/** Section content of the declared vocabulary: a hero (heading, maybe a subheading) or a text (body, maybe a heading). */
function contentArb(v: NonNullable<typeof vocabulary>): fc.Arbitrary<{ type: string; content: Json }> {
  return fc.oneof(
    fc.record({ heading: text, subheading: fc.option(text, { nil: undefined }) }).map(({ heading, subheading }) => ({ type: v.hero, content: { [v.heading]: heading, ...(subheading ? { [v.subheading]: subheading } : {}) } })),
    fc.record({ body: text, heading: fc.option(text, { nil: undefined }) }).map(({ body, heading }) => ({ type: v.text, content: { [v.body]: body, ...(heading ? { [v.heading]: heading } : {}) } })),
  );
}

/** The sections of one page: random ones in the declared vocabulary, else some of `templates` (the target's own). */
function sectionsArb(templates: Section[]): fc.Arbitrary<{ key: string; type: string; content: Json; layout?: Json; hidden: boolean; blocks: Json[] }[]> {
  const v = vocabulary;
  if (v) {
    const block = fc.tuple(key, contentArb(v)).map(([k, c]) => ({ key: k, ...c }));
    return keyed(fc.record({ key, part: contentArb(v), hidden: fc.boolean(), blocks: keyed(block, 2) }).map(({ key: k, part, hidden, blocks }) => ({ key: k, ...part, hidden, blocks })), 3);
  }
  if (!templates.length) return fc.constant([]);
  return keyed(
    fc.record({ key, template: fc.constantFrom(...templates), hidden: fc.boolean() }).map(({ key: k, template, hidden }) => ({ key: k, type: template.type, content: template.content, ...(template.layout ? { layout: template.layout as Json } : {}), hidden, blocks: template.blocks ?? [] })),
    3,
  );
}

function snapshotArb(templates: Section[]): fc.Arbitrary<Snapshot> {
  const page = fc.record({ key, title: text, kind: fc.constantFrom('page', 'post'), seoTitle: text, seoDescription: text, hidden: fc.boolean(), sections: sectionsArb(templates) }).map((p) => ({
    key: p.key,
    title: p.title,
    slug: p.key,
    kind: p.kind,
    seo: { title: p.seoTitle, description: p.seoDescription },
    hidden: p.hidden,
    sections: p.sections.map(({ key: k, ...s }) => ({ externalKey: `${p.key}/${k}`, ...s, layout: s.layout ?? {} })),
  }));
  const service = fc.record({ key, name: text, description: fc.option(text, { nil: undefined }), price: fc.option(fc.record({ amount: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100), currency: fc.constantFrom('EUR', 'USD', 'GBP') }), { nil: undefined }), durationMinutes: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }) });
  const collection = fc.record({ key, name: text, items: fc.array(fc.record({ name: text }), { maxLength: 3 }) });
  const redirect = fc.record({ key, to: fc.constantFrom('/', '/contact', 'https://example.test/moved'), permanent: fc.boolean() }).map((r) => ({ key: r.key, from: `/old-${r.key}`, to: r.to, permanent: r.permanent }));
  // An image of its own (test-website.ts /asset/<token>.png), so no two assets are the same bytes.
  const asset = fc.record({ key, token: fc.stringMatching(/^[a-z0-9]{12}$/), alt: text }).map((a) => ({ key: a.key, url: `${kitHttps}/asset/rt-${a.token}.png`, alt: a.alt, kind: 'image' }));
  return fc
    .record({
      name: text,
      fonts: fc.record({ heading: text, body: text }),
      pages: keyed(page, 3),
      services: keyed(service, 3),
      collections: keyed(collection, 2),
      redirects: keyed(redirect, 3),
      assets: kitHttps ? keyed(asset, 2) : fc.constant([]),
      email: key.map((k) => `${k}@example.test`),
      phone: fc.integer({ min: 1_000_000, max: 9_999_999 }).map((n) => `+49 30 ${n}`),
      analyticsId: fc.stringMatching(/^[A-Z0-9]{6,10}$/),
    })
    .map((s) => ({
      format: 'PortableSiteV1',
      site: { name: s.name },
      fonts: [{ role: 'heading', family: s.fonts.heading }, { role: 'body', family: s.fonts.body }],
      pages: s.pages,
      services: s.services.map((x) => Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined))),
      collections: s.collections,
      redirects: s.redirects.map(({ key: _k, ...r }) => r),
      ...(s.assets.length ? { assets: s.assets } : {}),
      contact: { businessName: s.name, email: s.email, phone: s.phone },
      analytics: { googleAnalyticsId: `G-${s.analyticsId}`, googleTagManagerId: `GTM-${s.analyticsId}` },
    }));
}

describe('a site through export and import', () => {
  it('rule:portable-site-round-trip rule:portable-site-contents rule:portable-site-blocks-carried rule:portable-site-assets-carried — an imported snapshot exports what it was given, and exports the same again after another import', async () => {
    /** A fresh world (so no run meets the plan's site limit) and a workspace connection that imports and exports. */
    const workspaceConnection = async () => {
      const { fx, site, owner } = await worldWithSite({ plan: 'business' });
      const created = await fx.connection({ userId: owner.userId, websiteId: site.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
      const mcp = new McpConnection(url(), created.token);
      const call = async (tool: string, args: Json) => {
        const { envelope } = await mcp.callTool(tool, args);
        expect(envelope.ok, `${tool}: ${JSON.stringify(envelope.error)}`).toBe(true);
        return envelope.data as unknown;
      };
      const exportOf = async (websiteId: string) => {
        const data = await call('export_site', { websiteId });
        const snapshot = exportedSnapshot(data);
        expect(snapshot, `the export of ${websiteId} holds no PortableSiteV1 snapshot: ${JSON.stringify(data).slice(0, 300)}`).toBeTruthy();
        return snapshot!;
      };
      const newSiteOf = async (data: unknown) => {
        const websiteId = await importedWebsiteId(mcp, data, [site.websiteId]);
        expect(websiteId, `import_site answered no website id that export_site takes: ${JSON.stringify(data).slice(0, 300)}`).toBeTruthy();
        return websiteId!;
      };
      return { mcp, site, exportOf, importAndExport: async (snapshot: Snapshot) => exportOf(await newSiteOf(await call('import_site', { snapshot }))) };
    };
    // The target's own sections, for a target whose section vocabulary is not declared.
    const first = await workspaceConnection();
    const templates = (await first.exportOf(first.site.websiteId)).pages.flatMap((p) => p.sections);
    await first.mcp.close();
    await fc.assert(
      fc.asyncProperty(snapshotArb(templates), async (given) => {
        const { mcp, importAndExport } = await workspaceConnection();
        try {
          const exported = await importAndExport(given);
          expect(contents(exported), 'the export of the site imported from the snapshot').toEqual(contents(given));
          const { exportedAt: _at, ...again } = exported;
          const reexported = await importAndExport(again as Snapshot);
          expect(contents(reexported), 'the export of the site imported from that export').toEqual(contents(exported));
        } finally {
          await mcp.close();
        }
      }),
      params(10),
    );
  });
});
