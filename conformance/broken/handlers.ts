// Broken tool handlers: each replaces one handler of the reference's table (reference/tools/index.ts) to break
// one rule. Most wrap the real handler and change what it is given or what it leaves behind (all inside the
// call's held writes, so a call that fails still keeps nothing); where that cannot reach the rule, a small
// handler is copied minus the rule, built from the domain's exported functions.
import { DomainError } from '../../reference/domain/errors.js';
import { newId } from '../../reference/domain/ids.js';
import { entryOf, type Plan, type Site, type WorkspaceDoc } from '../../reference/domain/model.js';
import { editorUrl, findSection, fingerprint, newSite, recordChange } from '../../reference/domain/site.js';
import { takeConfig } from '../../reference/domain/import-merge.js';
import { checkCreatorOwnsWorkspace } from '../../reference/domain/authorize.js';
import { createCompany } from '../../reference/domain/company.js';
import { handlers } from '../../reference/tools/index.js';
import { defineTool, type ContextOf, type HandlerOf, type HandlerTable, type ToolContext } from '../../reference/tools/types.js';
import { checkSiteLimit } from '../../reference/domain/workspace.js';
import { loadTools } from '../../spec/index.js';
import { httpTransport, systemResolve } from '../../reference/infra/safe-fetch.js';
import ipaddr from 'ipaddr.js';

/** publish-site-fails-closed: publish_site puts the draft live at once, with no review. */
export const publishWithoutReview = defineTool('publish_site', (ctx) =>
  ctx.write((_ws, site) => {
    site.published = { revision: site.siteRevision, publishedAt: ctx.now.toISOString(), content: structuredClone(site.draft) };
    return {};
  }),
);

/** list-sites-reach: list_sites on a website-reach connection lists every site of the workspace its creator can see. */
export const listEverySite: HandlerOf<'list_sites'> = (ctx) => handlers.list_sites({ ...ctx, connection: { ...ctx.connection, reach: 'workspace' } });

/** set-section-layout-tokens: set_section_layout refuses every layout, its own tokens too, as invalid. */
export const refuseEveryLayout: HandlerOf<'set_section_layout'> = () => {
  throw new DomainError('validation_failed', 'This layout is not allowed.', { issues: [{ path: '/layout', message: 'not allowed' }] });
};

/** replace-section-stale-rev-rejected: replace_section_content takes any clientRev as the current one. */
export const replaceAnyRevision: HandlerOf<'replace_section_content'> = (ctx) =>
  handlers.replace_section_content({ ...ctx, args: { ...ctx.args, clientRev: findSection(ctx.site, ctx.args.sectionId).section.rev } });

/** create-site-limit-twice: create_site checks the site limit at the gate only, not again inside its write. */
export const createSiteCheckedOnce = defineTool('create_site', async ({ store, limits, baseUrl, ws, connection, args, note, now }) => {
  checkCreatorOwnsWorkspace(ws, connection);
  checkSiteLimit(limits, ws);
  const site = await store.transact(ws.id, (fresh, tx) => {
    const created = newSite({ name: args.businessName, businessName: args.businessName, members: { [connection.createdBy]: 'owner' }, now });
    recordChange(created, now, 'site-created', 'Empty site created');
    fresh.sites[created.websiteId] = created;
    tx.index('site', created.websiteId);
    return created;
  });
  note('site created');
  return { websiteId: site.websiteId, editorUrl: editorUrl(baseUrl, site.websiteId), status: 'unpublished' as const };
});

/**
 * create-site-empty-draft: create_site makes a "starter" site with invented services, prices, opening hours and
 * testimonials, which the source forbids (the new site carries the business name only).
 */
export const createStarterSite: HandlerOf<'create_site'> = async (ctx) => {
  const created = await handlers.create_site(ctx);
  await ctx.store.transact(ctx.ws.id, (ws) => {
    const site = ws.sites[created.websiteId];
    if (site) inventContent(site, ctx.now);
  });
  return created;
};

function inventContent(site: Site, now: Date): void {
  site.records.services.push({ serviceId: newId('service'), websiteId: site.websiteId, name: 'Consultation', description: 'From 49 EUR per hour', status: 'draft', createdAt: now.toISOString() });
  site.draft.pages.push({
    pageId: newId('page'), key: 'home', slug: 'home', title: 'Home', kind: 'page', hidden: false, seo: { title: site.businessName, description: '' },
    sections: [
      { sectionId: newId('sec'), key: 'hero', type: 'hero', content: { heading: site.businessName }, layout: {}, rev: 0, hidden: false },
      { sectionId: newId('sec'), key: 'hours', type: 'text', content: { heading: 'Opening hours', body: 'Mon-Fri 9:00-17:00' }, layout: {}, rev: 0, hidden: false },
      { sectionId: newId('sec'), key: 'testimonials', type: 'text', content: { heading: 'What our customers say', body: 'Wonderful service!' }, layout: {}, rev: 0, hidden: false },
    ],
  });
}

/**
 * content-write-draft-only: every tool that writes content also puts the draft live, as if each change were
 * published (the handlers of the content:write tools, each followed by a copy of the draft to the live site).
 */
export function writesGoLive(): Partial<HandlerTable> {
  const contentWrite = new Set(loadTools().filter((tool) => tool.scopes.includes('content:write')).map((tool) => tool.name));
  const wrapped = Object.entries(handlers as unknown as Record<string, (ctx: ToolContext) => unknown>)
    .filter(([name]) => contentWrite.has(name))
    .map(([name, real]) => [
      name,
      async (ctx: ToolContext) => {
        const answer = await real(ctx);
        if (ctx.site) await ctx.write((_ws, site) => void (site.published && (site.published.content = structuredClone(site.draft))));
        return answer;
      },
    ]);
  return Object.fromEntries(wrapped) as Partial<HandlerTable>;
}

/**
 * confirm_pending_action after `alter` changed the stored plan (or its workspace) in the call's held writes, so
 * the real redemption sees a plan that passes the check the broken server skips; what `alter` returns undoes its
 * change to the workspace afterwards.
 */
type Alter = (plan: Plan, ws: WorkspaceDoc, ctx: ContextOf<'confirm_pending_action'>) => ((ws: WorkspaceDoc) => void) | void;

function confirmAfter(alter: Alter): HandlerOf<'confirm_pending_action'> {
  return async (ctx) => {
    const undo = await ctx.store.transact(ctx.ws.id, (ws) => {
      const plan = entryOf(ws.plans, ctx.args.planId);
      return plan ? alter(plan, ws, ctx) : undefined;
    });
    const answer = await handlers.confirm_pending_action(ctx);
    if (undo) await ctx.store.transact(ctx.ws.id, undo);
    return answer;
  };
}

/** plan-caller-bound: any connection of the workspace may redeem a plan, not only the one that prepared it. */
export const confirmFromAnyConnection = confirmAfter((plan, _ws, ctx) => void (plan.connectionId = ctx.connection.connectionId));

/** plan-single-use: a redeemed plan can be redeemed again. */
export const confirmAgain = confirmAfter((plan) => void (plan.status === 'redeemed' && (plan.status = 'approved')));

/** plan-confirm-requires-approval: a declined plan is carried out as if approved. */
export const confirmDeclined = confirmAfter((plan) => void (plan.status === 'declined' && (plan.status = 'approved')));

/** plan-pins-*: what a plan of `kind` was reviewed for is read at confirm instead of at prepare, so a change in between goes unnoticed. */
function confirmRepinned(kind: Plan['kind'], pin: (site: Site, plan: Plan) => Plan['pinned']): HandlerOf<'confirm_pending_action'> {
  return confirmAfter((plan, ws) => {
    const site = entryOf(ws.sites, plan.websiteId);
    if (plan.kind === kind && site) plan.pinned = pin(site, plan);
  });
}

const recordOf = (site: Site, kind: 'products' | 'documents', idField: string, id: unknown) => site.records[kind].find((r) => r[idField] === id);

export const confirmUnpinnedPublish = confirmRepinned('publish', (site) => ({ siteRevision: site.siteRevision }));
export const confirmUnpinnedProduct = confirmRepinned('publish_product', (site, plan) => ({ productRevision: Number(recordOf(site, 'products', 'productId', plan.params.productId)?.revision ?? 0) }));
export const confirmUnpinnedDocument = confirmRepinned('send_document', (site, plan) => ({ documentFingerprint: fingerprint(recordOf(site, 'documents', 'documentId', plan.params.documentId)) }));

/**
 * grant-access-owner-only: an access plan is carried out by a creator who is no longer an owner of the site (they
 * count as one for the redemption only, and hold their own role again afterwards).
 */
export const confirmAccessAsAnyMember = confirmAfter((plan, ws, ctx) => {
  const site = entryOf(ws.sites, plan.websiteId);
  const userId = ctx.connection.createdBy;
  const role = site?.members[userId];
  if (plan.kind !== 'grant_access' || !site || !role || role === 'owner') return;
  site.members[userId] = 'owner';
  return (after) => {
    const same = entryOf(after.sites, site.websiteId);
    if (same) same.members[userId] = role;
  };
});

/** import-merge-three-way: a merge forgets what was last pushed, so a field the app edited always counts as a conflict. */
export const mergeWithoutBases: HandlerOf<'import_site'> = async (ctx) => {
  const targetId = ctx.args.mergeIntoWebsiteId;
  if (targetId) {
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, targetId);
      if (site) delete site.syncBases;
    });
  }
  return handlers.import_site(ctx);
};

/** import-merge-force-keys: forceKeys is honoured in its field form <page>/<section>#<field> only, not its whole-section form. */
export const forceFieldsOnly: HandlerOf<'import_site'> = (ctx) =>
  handlers.import_site({ ...ctx, args: { ...ctx.args, ...(ctx.args.forceKeys ? { forceKeys: ctx.args.forceKeys.filter((key) => key.includes('#')) } : {}) } });

/** import-merge-never-touches-config: a merge also takes the snapshot's site identity, theme and fonts, as a new import does. */
export const mergeTakesConfig: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  const targetId = ctx.args.mergeIntoWebsiteId;
  if (targetId) {
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, targetId);
      if (site) takeConfig(site, ctx.args.snapshot);
    });
  }
  return answer;
};

/** portable-site-contents: export_site carries pages and sections only: no fonts, assets, services, collections or redirects. */
export const exportPagesOnly: HandlerOf<'export_site'> = async (ctx) => {
  const { snapshot } = await handlers.export_site(ctx);
  return { snapshot: { ...snapshot, fonts: [], assets: [], services: [], collections: [], redirects: [] } };
};

/** portable-site-blocks-carried: export_site leaves every section's blocks out. */
export const exportWithoutBlocks: HandlerOf<'export_site'> = async (ctx) => {
  const snapshot = structuredClone((await handlers.export_site(ctx)).snapshot);
  for (const page of snapshot.pages) for (const section of page.sections) section.blocks = [];
  return { snapshot };
};

/**
 * generate-image-charged-after-delivery: a delivery that fails keeps its charge, as when credits are taken before
 * the provider is called. Composed with the call path's held writes left out (index.ts), so the charge is kept
 * although the call fails.
 */
export const chargeUndelivered: HandlerOf<'generate_image'> = async (ctx) => {
  try {
    return await handlers.generate_image(ctx);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'operation_failed') {
      const cost = ctx.limits.imageCreditCost.value;
      await ctx.store.transact(ctx.ws.id, (ws) => void (ws.credits -= cost));
      ctx.note('credits charged before delivery', { creditsSpent: cost });
    }
    throw error;
  }
};

/**
 * generate-image-consent-reread: AI consent as first seen in each workspace, so a later withdrawal goes unnoticed
 * (the real handler runs with that consent; the workspace holds its own again afterwards).
 */
const consentSeen = new Map<string, boolean>();
export const consentAsFirstSeen: HandlerOf<'generate_image'> = async (ctx) => {
  const actual = ctx.ws.aiConsent;
  const first = consentSeen.get(ctx.ws.id) ?? actual;
  consentSeen.set(ctx.ws.id, first);
  if (first === actual) return handlers.generate_image(ctx);
  await ctx.store.transact(ctx.ws.id, (ws) => void (ws.aiConsent = first));
  const answer = await handlers.generate_image(ctx);
  await ctx.store.transact(ctx.ws.id, (ws) => void (ws.aiConsent = actual));
  return answer;
};

/**
 * generate-image-balance-never-negative: the balance is checked as the call starts and not again when the image
 * is charged, so racing calls each spend the last credits (the real handler is lent its cost for its own check,
 * repaid after the charge).
 */
export const chargeWithoutRecheck: HandlerOf<'generate_image'> = async (ctx) => {
  const cost = ctx.limits.imageCreditCost.value;
  if (ctx.ws.credits < cost) return handlers.generate_image(ctx);
  await ctx.store.transact(ctx.ws.id, (ws) => void (ws.credits += cost));
  const answer = await handlers.generate_image(ctx);
  const creditsRemaining = await ctx.store.transact(ctx.ws.id, (ws) => (ws.credits -= cost));
  return { ...answer, creditsRemaining };
};

/**
 * portable-site-round-trip: a new site imported from a snapshot keeps its services' names and descriptions but
 * not their prices or durations, so an exported site comes back poorer (as the reference did before this rule).
 */
export const importDropsServiceDetails: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  if (!ctx.args.mergeIntoWebsiteId) {
    await ctx.store.transact(ctx.ws.id, (ws) => {
      for (const service of entryOf(ws.sites, answer.websiteId)?.records.services ?? []) {
        delete service.price;
        delete service.durationMinutes;
      }
    });
  }
  return answer;
};

/**
 * import-site-assets-revalidated: a new import fetches and checks each listed asset, then names it by its source URL
 * (hotlinks it) instead of the copy it fetched, so the site's asset is gone once the source stops serving it.
 */
export const importHotlinksAssets: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  if (!ctx.args.mergeIntoWebsiteId) {
    const source = new Map((ctx.args.snapshot.assets ?? []).map((a) => [a.key, a.url]));
    await ctx.store.transact(ctx.ws.id, (ws) => {
      for (const asset of entryOf(ws.sites, answer.websiteId)?.draft.assets ?? []) asset.url = source.get(asset.key) ?? asset.url;
    });
  }
  return answer;
};

/**
 * import-merge-adds-assets: a merge fetches the snapshot's listed assets but the target keeps none of them (the
 * assets it added under the snapshot's keys are taken away again; what the site had before stays).
 */
export const mergeDropsListedAssets: HandlerOf<'import_site'> = async (ctx) => {
  const targetId = ctx.args.mergeIntoWebsiteId;
  const before = targetId ? new Set(entryOf((await ctx.store.read(ctx.ws.id))?.sites ?? {}, targetId)?.draft.assets.map((a) => a.key)) : undefined;
  const answer = await handlers.import_site(ctx);
  if (targetId && before) {
    const listed = new Set((ctx.args.snapshot.assets ?? []).map((a) => a.key));
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, targetId);
      if (site) site.draft.assets = site.draft.assets.filter((a) => before.has(a.key) || !listed.has(a.key));
    });
  }
  return answer;
};

/** portable-site-assets-carried: export_site lists the site's assets without the alt text they were given. */
export const exportAssetsWithoutAlt: HandlerOf<'export_site'> = async (ctx) => {
  const snapshot = structuredClone((await handlers.export_site(ctx)).snapshot);
  for (const asset of snapshot.assets ?? []) delete asset.alt;
  return { snapshot };
};

/**
 * import-merge-restore-point: a merge saves its restore point after changing the draft instead of before, so the
 * restore point it reports holds the merged draft and restores nothing.
 */
export const restorePointAfterMerge: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  if (ctx.args.mergeIntoWebsiteId) {
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, answer.websiteId);
      const saved = site?.restorePoints.at(-1);
      if (site && saved) saved.draft = structuredClone(site.draft);
    });
  }
  return answer;
};

/** export-site-contact-and-analytics: export_site leaves the analytics and tag-manager identifiers out. */
export const exportWithoutAnalytics: HandlerOf<'export_site'> = async (ctx) => {
  const { snapshot } = await handlers.export_site(ctx);
  return { snapshot: { ...snapshot, analytics: {} } };
};

/**
 * domain-other-site-same-as-missing: a hostname another site connected is refused with its own message ("taken"),
 * unlike one that does not exist, so an answer tells which addresses other tenants use.
 */
function tellTakenHostnames<T extends 'connect_domain' | 'set_primary_domain'>(tool: T): HandlerOf<T> {
  const real = handlers[tool] as unknown as (ctx: ContextOf<T>) => Promise<unknown>;
  return (async (ctx: ContextOf<T>) => {
    try {
      return await real(ctx);
    } catch (error) {
      const hostname = String((ctx.args as { hostname: string }).hostname).toLowerCase();
      const owner = error instanceof DomainError && error.code === 'not_found' ? await ctx.store.lookupDirectory('hostname', hostname) : undefined;
      if (owner && owner !== ctx.site?.websiteId) throw new DomainError('not_found', `${hostname} is already connected to another account's website.`);
      throw error;
    }
  }) as unknown as HandlerOf<T>;
}
export const connectTellsTaken = tellTakenHostnames('connect_domain');
export const primaryTellsTaken = tellTakenHostnames('set_primary_domain');

/**
 * activity-crm-summary-field-names: a customer-record change's activity summary also tells the status it set (a
 * value, not a field name), as a helpful log line would.
 */
export const summaryWithStatus: HandlerOf<'crm_update'> = (ctx) => {
  const status = (ctx.args.changes as { status?: unknown }).status;
  return handlers.crm_update(status === undefined ? ctx : { ...ctx, note: (summary, extra) => ctx.note(`${summary} (status now ${String(status)})`, extra) });
};

/**
 * human-only-no-deletion: a merge mirrors the snapshot, so the pages it lacks and the sections its pages lack are
 * deleted (§1.7 leaves deleting a page to a human).
 */
export const mergeMirrorsSnapshot: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  const targetId = ctx.args.mergeIntoWebsiteId;
  if (targetId) {
    const pushed = new Map(ctx.args.snapshot.pages.map((page) => [page.key, new Set(page.sections.map((s) => s.externalKey.split('/')[1]))]));
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, targetId);
      if (!site) return;
      site.draft.pages = site.draft.pages.filter((page) => pushed.has(page.key));
      for (const page of site.draft.pages) page.sections = page.sections.filter((s) => pushed.get(page.key)!.has(s.key));
    });
  }
  return answer;
};

// Risky actions carried out at prepare instead of at confirm (§1.6: they "do not run directly"): each the real
// prepare_* tool, followed by the effect its plan was to have only once approved and confirmed.

/** unpublish-takes-site-offline: prepare_unpublish already takes the site off its public address. */
export const unpublishAtPrepare: HandlerOf<'prepare_unpublish'> = async (ctx) => {
  const answer = await handlers.prepare_unpublish(ctx);
  await ctx.write((_ws, site) => void (site.published = null));
  return answer;
};

/** search-visibility-reviewed: prepare_search_visibility already applies the visibility it plans. */
export const searchVisibilityAtPrepare: HandlerOf<'prepare_search_visibility'> = async (ctx) => {
  const answer = await handlers.prepare_search_visibility(ctx);
  await ctx.write((_ws, site) => void (site.searchVisible = ctx.args.visible));
  return answer;
};

/** send-document-reviewed: prepare_send_document already sends the document. */
export const sendAtPrepare: HandlerOf<'prepare_send_document'> = async (ctx) => {
  const answer = await handlers.prepare_send_document(ctx);
  await ctx.write((_ws, site) => {
    const doc = site.records.documents.find((d) => d.documentId === ctx.args.documentId);
    if (doc) Object.assign(doc, { status: 'sent', sentAt: ctx.now.toISOString() });
  });
  return answer;
};

/** create-company-reviewed: prepare_create_company already creates the company (the confirm later finds it made). */
export const createCompanyAtPrepare: HandlerOf<'prepare_create_company'> = async (ctx) => {
  const answer = await handlers.prepare_create_company(ctx);
  await ctx.store.transact(ctx.ws.id, (ws, tx) => createCompany(ctx.store, tx, ws, answer.planId, ctx.args.companyName, ctx.connection.createdBy, ctx.now));
  return answer;
};

/**
 * migrate-ssrf-hardened: migrate_site_from_url refuses loopback but crawls a site at a private or link-local address
 * (its fetcher treats "internal" networks as trusted): only a listener on such an address sees it fetch there.
 */
export const migrateFetchingPrivateAddresses: HandlerOf<'migrate_site_from_url'> = (ctx) => {
  const start = URL.canParse(ctx.args.url) ? new URL(ctx.args.url) : undefined;
  const host = start?.hostname.replace(/^\[|\]$/g, '') ?? '';
  const internal = ipaddr.isValid(host) && ['private', 'linkLocal'].includes(ipaddr.process(host).range());
  if (!start || !internal) return handlers.migrate_site_from_url(ctx);
  return handlers.migrate_site_from_url({ ...ctx, net: { ...ctx.net, allowOrigins: [...(ctx.net.allowOrigins ?? []), start.origin] } });
};

/**
 * The context with a fetcher that checks one lookup of a name and connects by another, as a server open to DNS
 * rebinding does: its check is told every name resolves to a public address, and its connection then goes where
 * the name really resolves. Addresses spelled in the URL are checked as before.
 */
function connectingByAnotherLookup<C extends { net: ToolContext['net'] }>(ctx: C): C {
  const net = ctx.net;
  const resolve = net.resolve ?? systemResolve;
  const transport = net.transport ?? httpTransport;
  const real = new Map<string, string[]>();
  const rebinding: typeof net = {
    ...net,
    resolve: async (hostname) => {
      real.set(hostname, await resolve(hostname));
      return [SOME_PUBLIC_ADDRESS];
    },
    transport: (url, address, options) => {
      const actual = real.get(url.hostname);
      return actual?.[0] ? transport(url, actual[0], { ...options, addresses: actual }) : transport(url, address, options);
    },
  };
  return { ...ctx, net: rebinding };
}

/** A globally routable address the rebinding check is told of; nothing ever connects to it. */
const SOME_PUBLIC_ADDRESS = '203.0.114.1';

/** migrate-ssrf-names-resolved: migrate_site_from_url checks a name's first lookup and crawls where a second one leads. */
export const migrateConnectingByAnotherLookup: HandlerOf<'migrate_site_from_url'> = (ctx) =>
  handlers.migrate_site_from_url(connectingByAnotherLookup(ctx));

/**
 * migrate-crawl-time-bounded: the crawl waits for a page for as long as its source keeps sending, while the server
 * still states its budget (the fixtures part limits answers the composed limits, which this leaves alone).
 */
export const migrateWithoutTimeBudget: HandlerOf<'migrate_site_from_url'> = (ctx) =>
  handlers.migrate_site_from_url({ ...ctx, limits: { ...ctx.limits, crawl: { ...ctx.limits.crawl, fetchSeconds: 86_400, deadlineSeconds: 86_400, migrationSeconds: 86_400 } } });

/** import-site-new-draft: the site an import creates goes live at once instead of staying an unpublished draft. */
export const importPublishes: HandlerOf<'import_site'> = async (ctx) => {
  const answer = await handlers.import_site(ctx);
  const websiteId = (answer as { websiteId?: string }).websiteId;
  if (websiteId && !ctx.args.mergeIntoWebsiteId) {
    await ctx.store.transact(ctx.ws.id, (ws) => {
      const site = entryOf(ws.sites, websiteId);
      if (site && !site.published) site.published = { revision: site.siteRevision, publishedAt: ctx.now.toISOString(), content: structuredClone(site.draft) };
    });
  }
  return answer;
};

const RECORD_LISTS = { lead: ['leads', 'leadId'], booking: ['bookings', 'bookingId'], contact: ['contacts', 'contactId'] } as const;

/**
 * crm-update-cross-site-not-found: a record of another website of the same workspace is refused as forbidden
 * ("it belongs to another site"), not answered like a missing id.
 */
export const crmUpdateTellsSisterSites: HandlerOf<'crm_update'> = async (ctx) => {
  try {
    return await handlers.crm_update(ctx);
  } catch (error) {
    const [list, idField] = RECORD_LISTS[ctx.args.recordType];
    const elsewhere = Object.values(ctx.ws.sites).find((site) => site.websiteId !== ctx.site.websiteId && site.records[list].some((r) => r[idField] === ctx.args.recordId));
    if (error instanceof DomainError && error.code === 'not_found' && elsewhere) throw new DomainError('access_denied', `That ${ctx.args.recordType} belongs to another website of this workspace.`);
    throw error;
  }
};

/** generate-image-credits-before-provider: the image provider is asked first, the balance checked after. */
export const providerBeforeCredits: HandlerOf<'generate_image'> = async (ctx) => {
  await ctx.images.render({ workspaceId: ctx.ws.id, prompt: ctx.args.prompt, aspect: ctx.args.aspect ?? 'square', brand: ctx.site.brand }).catch(() => undefined);
  return handlers.generate_image(ctx);
};

/** grant-access-website-scoped: a confirmed invitation invites to every website of the workspace, not only its own. */
export const inviteToEverySite: HandlerOf<'confirm_pending_action'> = async (ctx) => {
  const answer = await handlers.confirm_pending_action(ctx);
  await ctx.store.transact(ctx.ws.id, (ws) => {
    const plan = entryOf(ws.plans, ctx.args.planId);
    const own = plan?.kind === 'grant_access' ? entryOf(ws.sites, plan.websiteId) : undefined;
    const invitation = own?.invitations.at(-1);
    if (!own || !invitation) return;
    for (const site of Object.values(ws.sites)) if (site !== own && !site.invitations.some((i) => i.email === invitation.email)) site.invitations.push({ ...invitation, invitationId: newId('inv') });
  });
  return answer;
};

/**
 * plan-redeem-reauthorizes-anchor: at confirm the creator only has to be a member of the plan's website: one demoted
 * to viewer after approval counts as an editor for the redemption (and is a viewer again afterwards).
 */
export const confirmByAnyMember = confirmAfter((plan, ws, ctx) => {
  const site = entryOf(ws.sites, plan.websiteId);
  const userId = ctx.connection.createdBy;
  if (!site || site.members[userId] !== 'viewer') return;
  site.members[userId] = 'editor';
  return (after) => {
    const same = entryOf(after.sites, site.websiteId);
    if (same) same.members[userId] = 'viewer';
  };
});
