// rule:authz-cross-tenant-not-found and rule:crm-update-cross-site-not-found, over HTTP: an id from another
// workspace answers exactly like an id that does not exist — same code, same message once the ids are masked —
// for every tool that takes an id of a site, page, section, record, product, document or plan.
//
// The probes are derived from spec/tools: every input property that carries such an id (ID_KINDS) makes the tool
// probed, with the other arguments it needs from ARGUMENTS. A tool whose input gains an id, or a new tool that
// takes one, fails the coverage test below until it has its arguments here, so no tool is forgotten.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadJson, loadTools } from '../../spec/index.js';
import { adopts, declaredErrorCode, outputPointer, sectionVocabularyIfDeclared } from '../lib/declaration.js';
import { pointer } from '../../features/support/json.js';
import { McpConnection } from '../lib/mcp-client.js';
import { connect, params, url, worldWithSite } from './harness.js';

type Kind = 'site' | 'page' | 'section' | 'lead' | 'booking' | 'contact' | 'product' | 'document' | 'plan';
type IdOf = (kind: Kind) => string;
/** One way to call a tool: its arguments, valid except for the ids (taken from `id`), and the kind of id it probes. */
type Variant = { kind: Kind; args: (id: IdOf) => Record<string, unknown> };

/** Input properties that carry an id of another tenant's object, and the kind of object (records: by recordType). */
const ID_KINDS: Record<string, Kind | 'record'> = {
  websiteId: 'site',
  mergeIntoWebsiteId: 'site',
  pageId: 'page',
  sectionId: 'section',
  recordId: 'record',
  productId: 'product',
  documentId: 'document',
  planId: 'plan',
};

// A variant whose arguments carry one of our decision values (a section type or field name, a booking status, a
// layout token) runs only when the target shares it: else its refusal could be about that value, not the id.
const type = (name: string) => sectionVocabularyIfDeclared('types', name);
const field = (name: string) => sectionVocabularyIfDeclared('fields', name);
const when = (condition: unknown, variant: Variant): Variant[] => (condition ? [variant] : []);
// The plan id of a prepare_* answer is our output shape: read only where the target declares it.
const planIdAt = outputPointer('prepare_publish', '/planId');
const kitWebsite = process.env.SITE_MCP_TEST_WEBSITE_URL;

const siteOnly: Variant[] = [{ kind: 'site', args: () => ({}) }];
const site = (args: Record<string, unknown>): Variant[] => [{ kind: 'site', args: () => args }];

/**
 * For every tool that takes an id: its variants (an empty list when each needs an undeclared decision value), or
 * the reason it is not probed. A tool with a websiteId is also probed with the other tenant's site (and that
 * site's page, section, … where it takes one).
 */
const ARGUMENTS: Record<string, Variant[] | { notProbed: string }> = {
  get_site_overview: siteOnly,
  list_pages: siteOnly,
  list_draft_changes: siteOnly,
  get_brand: siteOnly,
  get_analytics_summary: siteOnly,
  export_site: siteOnly,
  get_commerce_overview: siteOnly,
  list_services: siteOnly,
  list_products: siteOnly,
  list_leads: siteOnly,
  list_bookings: siteOnly,
  list_contacts: siteOnly,
  list_domains: siteOnly,
  list_access: siteOnly,
  list_sendable_documents: siteOnly,
  prepare_publish: siteOnly,
  prepare_unpublish: siteOnly,
  publish_site: siteOnly,
  create_page: site({ title: 'Probe page' }),
  create_blog_post: site({ title: 'Probe post', body: 'Probe text.' }),
  create_service: site({ name: 'Probe service' }),
  create_product: site({ name: 'Probe product', price: { amount: 1, currency: 'EUR' } }),
  generate_image: site({ prompt: 'A probe' }),
  update_business_name: site({ businessName: 'Probe Bakery' }),
  prepare_search_visibility: site({ visible: false }),
  prepare_grant_access: site({ email: 'probe@example.test', level: 'viewer' }),
  prepare_create_company: site({ companyName: 'Probe Company Ltd' }),
  connect_domain: site({ hostname: 'probe-tenant-isolation.test' }),
  set_primary_domain: site({ hostname: 'probe-tenant-isolation.test' }),
  import_site: [{ kind: 'site', args: (id) => ({ mergeIntoWebsiteId: id('site'), snapshot: { format: 'PortableSiteV1', site: { name: 'Probe' }, pages: [] } }) }],
  // It crawls before it reaches the merge target: only with a website it may crawl (the kit's, in a CLI run).
  migrate_site_from_url: when(kitWebsite, { kind: 'site', args: (id) => ({ url: `${kitWebsite}/`, mergeIntoWebsiteId: id('site'), maxPages: 1 }) }),
  get_page: [{ kind: 'page', args: (id) => ({ pageId: id('page') }) }],
  update_page_seo: [{ kind: 'page', args: (id) => ({ pageId: id('page'), title: 'Probe title' }) }],
  add_section: when(type('text') && field('body'), { kind: 'page', args: (id) => ({ pageId: id('page'), type: type('text'), content: { [field('body')!]: 'Probe' } }) }),
  get_section_json: [{ kind: 'section', args: (id) => ({ sectionId: id('section') }) }],
  set_section_hidden: [{ kind: 'section', args: (id) => ({ sectionId: id('section'), hidden: true }) }],
  move_section: [{ kind: 'section', args: (id) => ({ sectionId: id('section'), position: 0 }) }],
  update_section_text: when(field('heading'), { kind: 'section', args: (id) => ({ sectionId: id('section'), field: field('heading'), text: 'Probe' }) }),
  replace_section_content: when(field('heading'), { kind: 'section', args: (id) => ({ sectionId: id('section'), clientRev: 0, content: { [field('heading')!]: 'Probe' } }) }),
  set_section_layout: when(adopts('layout-token-values'), { kind: 'section', args: (id) => ({ sectionId: id('section'), layout: { width: 'wide' } }) }),
  crm_update: [
    { kind: 'lead', args: (id) => ({ recordType: 'lead', recordId: id('lead'), changes: { handled: true } }) },
    { kind: 'contact', args: (id) => ({ recordType: 'contact', recordId: id('contact'), changes: { handled: true } }) },
    ...when(adopts('crm-status-values'), { kind: 'booking', args: (id) => ({ recordType: 'booking', recordId: id('booking'), changes: { status: 'no_show' } }) }),
  ],
  prepare_publish_product: [{ kind: 'product', args: (id) => ({ productId: id('product') }) }],
  prepare_send_document: [{ kind: 'document', args: (id) => ({ documentId: id('document') }) }],
  confirm_pending_action: when(planIdAt, { kind: 'plan', args: (id) => ({ planId: id('plan') }) }),
};

/** The input properties of a tool, its oneOf branches included. */
function inputProperties(schema: Record<string, unknown>): string[] {
  const own = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const branches = ((schema.oneOf ?? schema.anyOf ?? []) as Record<string, unknown>[]).flatMap(inputProperties);
  return [...new Set([...own, ...branches])];
}

const tools = loadTools();
const idTaking = tools.filter((t) => inputProperties(t.inputSchema as Record<string, unknown>).some((p) => p in ID_KINDS));

type Probe = { tool: string; kind: Kind; withSite: boolean; takesSite: boolean; args: (id: IdOf) => Record<string, unknown> };

/**
 * Each variant once on the connection's own site (for a page, section, record, product, document or plan), and
 * once inside the other tenant's site where the tool takes a websiteId.
 */
function probes(): Probe[] {
  return idTaking.flatMap((tool) => {
    const entry = ARGUMENTS[tool.name];
    if (!entry || !Array.isArray(entry)) return [];
    const takesSite = inputProperties(tool.inputSchema as Record<string, unknown>).includes('websiteId');
    return entry.flatMap((v): Probe[] => [
      // A site variant of a tool without websiteId carries the site itself (mergeIntoWebsiteId).
      ...(v.kind !== 'site' || !takesSite ? [{ tool: tool.name, kind: v.kind, withSite: false, takesSite, args: v.args }] : []),
      ...(takesSite ? [{ tool: tool.name, kind: v.kind, withSite: true, takesSite, args: (id: IdOf) => ({ ...v.args(id), websiteId: id('site') }) }] : []),
    ]);
  });
}

const SCOPES = loadJson<{ scopes: { name: string }[] }>('scopes.json').scopes.map((s) => s.name);
const notFound = declaredErrorCode('not_found');
/** Calls per connection before the next one takes over, well under any per-connection rate limit. */
const CALLS_PER_CONNECTION = 40;

type Ids = Awaited<ReturnType<typeof worldWithSite>>['site'];

function foreignIds(site: Ids, planId: string | undefined): IdOf {
  return (kind) => {
    switch (kind) {
      case 'site':
        return site.websiteId;
      case 'page':
        return site.pages.home!.pageId;
      case 'section':
        return site.pages.home!.sections.hero!;
      case 'plan':
        if (!planId) throw new Error('no plan of the other tenant');
        return planId;
      default:
        return site.records[`${kind}s`]![0]!;
    }
  };
}

describe('tenant isolation', () => {
  it('every tool that takes an id of a site, page, section, record, product, document or plan is probed, or says why not', () => {
    const unknownIds = tools.flatMap((t) => inputProperties(t.inputSchema as Record<string, unknown>).filter((p) => /Id$/.test(p) && !(p in ID_KINDS)).map((p) => `${t.name}.${p}`));
    expect(unknownIds, 'id properties with no kind in ID_KINDS').toEqual([]);
    expect(idTaking.map((t) => t.name).filter((name) => !ARGUMENTS[name]), 'tools that take an id but have no ARGUMENTS').toEqual([]);
    expect(Object.keys(ARGUMENTS).filter((name) => !idTaking.some((t) => t.name === name)), 'ARGUMENTS of tools that take no id').toEqual([]);
  });

  it('rule:authz-cross-tenant-not-found rule:crm-update-cross-site-not-found — a foreign id answers exactly like a missing one, for every id-taking tool', async () => {
    const mine = await worldWithSite();
    const theirs = await worldWithSite();
    // The other tenant's plan, prepared by its own connection (its id is read only where the target declares it).
    let theirPlan: string | undefined;
    if (planIdAt !== undefined) {
      const preparer = await connect(theirs.fx, theirs.owner.userId, theirs.site.websiteId, ['site:read', 'publish']);
      try {
        const prepared = await preparer.mcp.callTool('prepare_publish', {});
        expect(prepared.envelope.ok, `the other tenant could not prepare a plan: ${JSON.stringify(prepared.envelope.error)}`).toBe(true);
        theirPlan = pointer(prepared.envelope.data, planIdAt) as string;
      } finally {
        await preparer.mcp.close();
      }
    }
    const all = probes();
    // Website reach refuses any other site id by its pin; workspace reach has to look each id up, which is where
    // another tenant's site could be told from a missing one. A workspace connection names its own site where a
    // probe's id is not a site's.
    const byReach = {
      website: all,
      workspace: all.map((p) => (p.withSite || !p.takesSite ? p : { ...p, args: (id: IdOf) => ({ ...p.args(id), websiteId: mine.site.websiteId }) })),
    };
    const foreign = foreignIds(theirs.site, theirPlan);
    await fc.assert(
      // Besides random ids, the names every plain object inherits: a server that looks ids up in one finds
      // "something" for them, and answers unlike a missing id (a real bug this property found).
      fc.asyncProperty(fc.oneof(fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'), fc.stringMatching(/^[A-Za-z0-9_-]{4,24}$/)), async (missingId) => {
        for (const reach of ['website', 'workspace'] as const) {
          let c: McpConnection | undefined;
          try {
            for (const [n, probe] of byReach[reach].entries()) {
              if (n % (CALLS_PER_CONNECTION / 2) === 0) {
                await c?.close();
                const created = await mine.fx.connection({ userId: mine.owner.userId, websiteId: mine.site.websiteId, reach, scopes: SCOPES });
                c = new McpConnection(url(), created.token);
              }
              // fast-check's report names the counterexample only: the failing probe is printed here.
              await probeOnce(c!, probe, `${reach} reach`).catch((error: unknown) => {
                console.error(`tenant isolation: ${(error as Error).message.split('\n')[0]}`);
                throw error;
              });
            }
          } finally {
            await c?.close();
          }
        }

        async function probeOnce(c: McpConnection, probe: Probe, reach: string) {
          const used = { foreign: new Set<string>(), missing: new Set<string>() };
          const a = await c.callTool(probe.tool, probe.args((k) => (used.foreign.add(foreign(k)), foreign(k))));
          const b = await c.callTool(probe.tool, probe.args(() => (used.missing.add(missingId), missingId)));
          const what = `${probe.tool} with another tenant's ${probe.kind}${probe.withSite && probe.kind !== 'site' ? ' in its site' : ''} (${reach})`;
          expect(a.envelope.ok, `${what} reached it: ${JSON.stringify(a.envelope.data)?.slice(0, 200)}`).toBe(false);
          expect(b.envelope.ok, `${probe.tool} with a missing ${probe.kind} succeeded (${reach})`).toBe(false);
          // The same answer as for a missing id (source); the code itself only when declared.
          expect(a.envelope.error?.code, `${what}: code`).toBe(b.envelope.error?.code);
          if (notFound) expect(a.envelope.error?.code, `${what}: the declared not_found code`).toBe(notFound);
          const mask = (text: string | undefined, ids: Set<string>) => [...ids].sort((x, y) => y.length - x.length).reduce((t, id) => t.split(id).join('<id>'), text ?? '');
          expect(mask(a.envelope.error?.message, used.foreign), `${what}: message`).toBe(mask(b.envelope.error?.message, used.missing));
          expect(a.envelope.error?.details ?? null, `${what}: details`).toEqual(b.envelope.error?.details ?? null);
        }
      }),
      // One run covers every probe; no shrinking (each step would repeat every call).
      { ...params(1), endOnFailure: true },
    );
  });
});
