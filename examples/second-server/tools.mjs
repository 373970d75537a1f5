// The tools the Bakehouse server implements: §4.3's site:read and content:write rows and the publish row with
// confirm_pending_action (the reviewed rail). Each tool: the scope it needs, the role it needs on the site, how its
// website is found (`target`), its input schema (published in tools/list and checked before the handler runs) and
// its handler, which throws ToolError for a refusal and changes nothing before every check has passed.
import { PLAN_LIFETIME_MS, SECTION_TYPES, slugify } from './store.mjs';

export class ToolError extends Error {
  constructor(code, message, outcome, extra = {}) {
    super(message);
    this.code = code;
    this.outcome = outcome;
    this.extra = extra;
  }
}
// Our error codes (§7: "error codes and exact error message texts: not shown").
export const missing = (what) => new ToolError('MISSING', `There is no ${what} with that id here.`, 'not_found');
export const badInput = (problems) => new ToolError('BAD_INPUT', 'The arguments are not acceptable: ' + problems.map((p) => `${p.at}: ${p.says}`).join('; '), 'invalid', { problems });

const MARKUP = /<\s*[a-zA-Z!/?]|<\s*$|javascript:/i;
const websiteId = { type: 'string', maxLength: 64 };
const anId = { type: 'string', minLength: 1, maxLength: 64 };
const plain = (max) => ({ type: 'string', maxLength: max, plainText: true });

/** A small validator of the subset of JSON Schema our input schemas use; `plainText` is ours: no markup. */
export function validate(schema, value, at = '') {
  const problems = [];
  const here = at || '(arguments)';
  if (schema.type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ at: here, says: 'must be an object' }];
    for (const key of schema.required ?? []) if (!(key in value)) problems.push({ at: `${at}/${key}`, says: `${key} is required` });
    for (const [key, v] of Object.entries(value)) {
      const sub = schema.properties?.[key];
      if (!sub) {
        if (schema.additionalProperties === false) problems.push({ at: `${at}/${key}`, says: `${key} is not an argument of this tool` });
        else if (schema.additionalProperties) problems.push(...validate(schema.additionalProperties, v, `${at}/${key}`));
        continue;
      }
      problems.push(...validate(sub, v, `${at}/${key}`));
    }
    if (schema.oneRequired && !schema.oneRequired.some((k) => k in value)) problems.push({ at: `${at}/${schema.oneRequired[0]}`, says: `give at least one of ${schema.oneRequired.join(', ')}` });
    return problems;
  }
  if (schema.enum && !schema.enum.includes(value)) return [{ at: here, says: `must be one of ${schema.enum.join(', ')}` }];
  if (schema.type === 'string') {
    if (typeof value !== 'string') return [{ at: here, says: 'must be a string' }];
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push({ at: here, says: `must have at least ${schema.minLength} characters` });
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push({ at: here, says: `must have at most ${schema.maxLength} characters` });
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) problems.push({ at: here, says: 'has a form this tool does not take' });
    if (schema.plainText && MARKUP.test(value)) problems.push({ at: here, says: 'must be plain text, without markup' });
  } else if (schema.type === 'integer') {
    if (!Number.isInteger(value)) return [{ at: here, says: 'must be a whole number' }];
    if (schema.minimum !== undefined && value < schema.minimum) problems.push({ at: here, says: `must be at least ${schema.minimum}` });
  } else if (schema.type === 'boolean' && typeof value !== 'boolean') problems.push({ at: here, says: 'must be true or false' });
  return problems;
}

/** The JSON Schema we publish: our validator's keywords minus the ones JSON Schema does not know. */
export function published(schema) {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === 'plainText' || k === 'oneRequired' ? undefined : v)));
}

const obj = (properties, required = []) => ({ type: 'object', additionalProperties: false, properties: { websiteId, ...properties }, required });

function page(site, pageId) {
  const found = site.pages.find((p) => p.id === pageId);
  if (!found) throw missing('page');
  return found;
}

function section(store, site, sectionId) {
  const found = store.findSection(site, sectionId);
  if (!found) throw missing('section');
  return found;
}

function checkContent(type, content, at) {
  const fields = SECTION_TYPES[type];
  const problems = [];
  if (!fields) return [{ at: `${at}/type`, says: `unknown section type; known: ${Object.keys(SECTION_TYPES).join(', ')}` }];
  for (const [key, value] of Object.entries(content)) {
    if (!fields.includes(key)) problems.push({ at: `${at}/content/${key}`, says: `${key} is not a field of a ${type} section` });
    else problems.push(...validate(plain(2000), value, `${at}/content/${key}`));
  }
  return problems;
}

const sectionView = (s) => ({ sectionId: s.id, type: s.type, hidden: s.hidden, rev: s.rev, content: s.content });
const pageSummary = (p) => ({ pageId: p.id, title: p.title, slug: p.slug, kind: p.kind === 'post' ? 'article' : 'page', blocks: p.sections.length });

// Our review card kinds (§3: state names and plan shapes "not shown").
const REVIEW_KINDS = { prepare_publish: 'go-live', prepare_unpublish: 'take-down' };

function prepare(tool) {
  return (ctx) => {
    const { store, site, connection } = ctx;
    const now = store.now(site.workspaceId);
    const card = {
      id: `rv_${crypto.randomUUID().replaceAll('-', '')}`,
      kind: REVIEW_KINDS[tool],
      websiteId: site.id,
      workspaceId: site.workspaceId,
      connectionId: connection.id,
      createdBy: connection.createdBy,
      pinnedRevision: site.revision,
      state: 'waiting',
      seq: store.reviews.size + store.collected.size,
      createdAt: now,
      expiresAt: now + PLAN_LIFETIME_MS,
    };
    store.reviews.set(card.id, card);
    return {
      headline: card.kind === 'go-live' ? `Put revision ${site.revision} of ${site.name} online` : `Take ${site.name} offline`,
      review: { id: card.id, action: card.kind, site: site.id, pins: { revision: card.pinnedRevision }, validUntil: new Date(card.expiresAt).toISOString() },
      nextStep: 'An owner approves this card in the app; then call confirm_pending_action with its id.',
    };
  };
}

export const TOOLS = {
  list_sites: {
    scope: 'site:read', role: 'viewer', target: 'none',
    description: 'The websites this connection reaches.',
    input: { type: 'object', additionalProperties: false, properties: {} },
    run: ({ store, connection, roleOn }) => {
      const sites = [...store.sites.values()].filter((s) => (connection.reach === 'website' ? s.id === connection.websiteId : s.workspaceId === connection.workspaceId) && roleOn(s));
      return { items: sites.map((s) => ({ websiteId: s.id, title: s.name, state: s.online ? 'online' : 'offline' })), reach: connection.reach };
    },
  },
  get_site_overview: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'Name, business, draft revision and whether the site is online.',
    input: obj({}),
    run: ({ site }) => ({ site: { websiteId: site.id, title: site.name, business: site.businessName, revision: site.revision, online: site.online, liveRevision: site.live?.revision ?? null, pageCount: site.pages.length } }),
  },
  list_pages: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'The draft pages and posts of the site.',
    input: obj({}),
    run: ({ site }) => ({ entries: site.pages.map(pageSummary) }),
  },
  get_page: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'One draft page with its sections (ids, types, content, rev).',
    input: obj({ pageId: anId }, ['pageId']),
    run: ({ site, args }) => {
      const p = page(site, args.pageId);
      return { page: { ...pageSummary(p), seo: p.seo, sections: p.sections.map(sectionView) } };
    },
  },
  list_draft_changes: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'What changed in the draft since it last went online: one entry per changed thing.',
    input: obj({}),
    run: ({ site }) => ({ revision: site.revision, dirty: site.changes.size > 0 || !site.live, changed: [...site.changes.values()].map((c) => ({ thing: c.thing, edits: c.edits, lastAt: c.atRevision })) }),
  },
  get_brand: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'Colours and typeface of the site.',
    input: obj({}),
    run: ({ site }) => ({ brand: site.brand }),
  },
  get_analytics_summary: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'Visits of the live site over a period (this server keeps no visits yet: all zero).',
    input: obj({ period: { type: 'string', enum: ['7d', '30d', '90d'] } }),
    run: ({ args }) => ({ window: args.period ?? '30d', visits: 0, visitors: 0, topPages: [] }),
  },
  export_site: {
    scope: 'site:read', role: 'viewer', target: 'site',
    description: 'The whole draft (never the live copy) as a PortableSiteV1 snapshot.',
    input: obj({}),
    run: ({ site }) => ({
      exportedFrom: site.id,
      portable: {
        format: 'PortableSiteV1',
        site: { name: site.name },
        pages: site.pages.map((p) => ({ key: p.key, title: p.title, slug: p.slug, kind: p.kind, seo: p.seo, sections: p.sections.map((s) => ({ externalKey: `${p.key}/${s.key}`, type: s.type, content: s.content, layout: {}, hidden: s.hidden, rev: s.rev })) })),
        blocks: [], fonts: [site.brand.typeface], assets: [], services: [], collections: [], redirects: [],
        contact: { businessName: site.businessName },
        analytics: {},
      },
    }),
  },
  update_section_text: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Set one text field of a draft section (plain text only).',
    input: obj({ sectionId: anId, field: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[a-zA-Z]+$' }, text: plain(5000) }, ['sectionId', 'field', 'text']),
    run: ({ store, site, args }) => {
      const { page: p, section: s } = section(store, site, args.sectionId);
      const fields = SECTION_TYPES[s.type] ?? Object.keys(s.content);
      if (!fields.includes(args.field)) throw badInput([{ at: '/field', says: `a ${s.type} section has the fields ${fields.join(', ')}` }]);
      s.content[args.field] = args.text;
      s.rev += 2;
      store.touch(site, `section ${p.key}/${s.key}`, `text ${args.field}`);
      return { updated: { sectionId: s.id, field: args.field, rev: s.rev }, revision: site.revision };
    },
  },
  update_page_seo: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Set the search title and/or description of a draft page.',
    input: { ...obj({ pageId: anId, title: plain(70), description: plain(160) }, ['pageId']), oneRequired: ['title', 'description'] },
    run: ({ store, site, args }) => {
      const p = page(site, args.pageId);
      if (args.title !== undefined) p.seo.title = args.title;
      if (args.description !== undefined) p.seo.description = args.description;
      store.touch(site, `page ${p.key}`, 'seo');
      return { seo: p.seo, revision: site.revision };
    },
  },
  add_section: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: `Add a section to a draft page. Types: ${Object.entries(SECTION_TYPES).map(([t, f]) => `${t} (${f.join(', ')})`).join('; ')}.`,
    input: obj({ pageId: anId, type: { type: 'string', maxLength: 40 }, content: { type: 'object' }, position: { type: 'integer', minimum: 0 } }, ['pageId', 'type', 'content']),
    run: ({ store, site, args }) => {
      const problems = checkContent(args.type, args.content, '');
      if (problems.length) throw badInput(problems);
      const p = page(site, args.pageId);
      if (args.position !== undefined && args.position > p.sections.length) throw badInput([{ at: '/position', says: `a position from 0 to ${p.sections.length}` }]);
      // Our key for a new section: its type and a number unique on the page.
      let n = 1;
      while (p.sections.some((s) => s.key === `${args.type}-${n}`)) n += 1;
      const s = store.addSection(p, { key: `${args.type}-${n}`, type: args.type, content: args.content });
      if (args.position !== undefined) p.sections.splice(args.position, 0, p.sections.pop());
      store.touch(site, `section ${p.key}/${s.key}`, 'added');
      return { section: { sectionId: s.id, key: `${p.key}/${s.key}`, rev: s.rev }, revision: site.revision };
    },
  },
  move_section: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Move a draft section to another position on its page (0 is the top).',
    input: obj({ sectionId: anId, position: { type: 'integer', minimum: 0 } }, ['sectionId', 'position']),
    run: ({ store, site, args }) => {
      const { page: p, section: s } = section(store, site, args.sectionId);
      if (args.position >= p.sections.length) throw badInput([{ at: '/position', says: `a position from 0 to ${p.sections.length - 1}` }]);
      p.sections.splice(p.sections.indexOf(s), 1);
      p.sections.splice(args.position, 0, s);
      store.touch(site, `section ${p.key}/${s.key}`, 'moved');
      return { order: p.sections.map((x) => x.id), revision: site.revision };
    },
  },
  set_section_hidden: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Hide or show a draft section.',
    input: obj({ sectionId: anId, hidden: { type: 'boolean' } }, ['sectionId', 'hidden']),
    run: ({ store, site, args }) => {
      const { page: p, section: s } = section(store, site, args.sectionId);
      s.hidden = args.hidden;
      store.touch(site, `section ${p.key}/${s.key}`, args.hidden ? 'hidden' : 'shown');
      return { sectionId: s.id, hidden: s.hidden, revision: site.revision };
    },
  },
  create_page: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Create an empty draft page.',
    input: obj({ title: { ...plain(120), minLength: 1 }, slug: { type: 'string', maxLength: 80, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' } }, ['title']),
    run: ({ store, site, args }) => createPage(store, site, args, 'page'),
  },
  create_blog_post: {
    scope: 'content:write', role: 'editor', target: 'site',
    description: 'Create a draft blog post (plain text body).',
    input: obj({ title: { ...plain(120), minLength: 1 }, body: { ...plain(20000), minLength: 1 }, excerpt: plain(300), slug: { type: 'string', maxLength: 80, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' } }, ['title', 'body']),
    run: ({ store, site, args }) => createPage(store, site, args, 'post'),
  },
  prepare_publish: {
    scope: 'publish', role: 'editor', target: 'site',
    description: 'Prepare a review card to put the current draft online; an owner approves it in the app, then confirm_pending_action.',
    input: obj({}),
    run: prepare('prepare_publish'),
  },
  prepare_unpublish: {
    scope: 'publish', role: 'editor', target: 'site',
    description: 'Prepare a review card to take the site offline; an owner approves it in the app, then confirm_pending_action.',
    input: obj({}),
    run: prepare('prepare_unpublish'),
  },
  publish_site: {
    scope: 'publish', role: 'editor', target: 'site',
    description: 'Never publishes directly: use prepare_publish, owner approval, then confirm_pending_action.',
    input: obj({}),
    run: () => {
      throw new ToolError('NEEDS_REVIEW', 'Publishing goes through a review: call prepare_publish, let an owner approve the card in the app, then call confirm_pending_action.', 'refused', { next: 'prepare_publish' });
    },
  },
  confirm_pending_action: {
    scope: null, role: 'editor', target: 'review',
    description: 'Carry out an approved review card (once, by the connection that prepared it, within 5 minutes).',
    input: obj({ planId: anId }, ['planId']),
    run: ({ store, site, card }) => {
      if (card.kind === 'go-live') {
        if (site.revision !== card.pinnedRevision) throw new ToolError('PLAN_STALE', 'The draft changed after this card was reviewed; prepare a new one.', 'refused');
        store.publish(site);
      } else {
        site.online = false;
      }
      card.state = 'carried-out';
      return { carriedOut: card.kind, online: site.online, liveRevision: site.live?.revision ?? null };
    },
  },
};

function createPage(store, site, args, kind) {
  const base = args.slug ?? slugify(args.title);
  let slug = base;
  for (let n = 2; site.pages.some((p) => p.slug === slug); n += 1) slug = `${base}-${n}`;
  const p = store.addPage(site, { key: slug, title: args.title, kind, slug });
  if (kind === 'post') store.addSection(p, { key: 'article', type: 'paragraph', content: { title: args.title, copy: args.body } });
  store.touch(site, `page ${p.key}`, kind === 'post' ? 'post created' : 'page created');
  return { page: { pageId: p.id, slug: p.slug, kind: kind === 'post' ? 'article' : 'page' }, revision: site.revision };
}
