// The fixtures protocol of conformance/docs/fixtures-protocol.md (test mode only), for the Bakehouse server. The kit names its own
// section types and fields in world requests (hero, text, contact; heading, body, …): we map them to ours here, as
// the README asks of an implementation with other ones. Refusals answer { error: { code, message } } with our own
// codes, except `owner_only`, which the protocol names for a connection refused to a non-owner.
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, FULL_WIDENED_AT, PRESETS, SECTION_TYPES } from './store.mjs';

const SUPPORTS = ['worlds', 'connections', 'memberships', 'settings', 'clock', 'app-edits', 'plan-decisions', 'plans', 'sites', 'activity', 'connection-plans'];
export const KIT_TYPES = { hero: 'banner', text: 'paragraph', contact: 'contact-form' };
export const KIT_FIELDS = { heading: 'title', subheading: 'tagline', buttonLabel: 'ctaText', buttonHref: 'ctaLink', body: 'copy' };
const ROLES = ['owner', 'editor', 'viewer'];
// §9.2: scopes that exist only from a date on.
const SCOPE_SINCE = { 'domain:read': Date.parse('2026-08-15T00:00:00Z'), ...Object.fromEntries(['crm:write', 'domain:write', 'communications:write', 'access:write', 'ai:generate'].map((s) => [s, Date.parse('2026-07-28T00:00:00Z')])) };
const RETENTION_MS = 90 * 86_400_000;

const fail = (status, code, message) => [status, { error: { code, message } }];
const ok = (answer = {}) => [200, answer];
const ourContent = (content = {}) => Object.fromEntries(Object.entries(content).map(([k, v]) => [KIT_FIELDS[k] ?? k, v]));

function defaultPages(business) {
  return [
    { key: 'home', title: 'Home', sections: [
      { key: 'hero', type: 'banner', content: { title: `Welcome to ${business}`, tagline: 'Fresh every morning', ctaText: 'Visit us', ctaLink: '/contact' } },
      { key: 'intro', type: 'paragraph', content: { title: 'About us', copy: `${business} is a family business.` } },
    ] },
    { key: 'contact', title: 'Contact', sections: [{ key: 'form', type: 'contact-form', content: { title: 'Get in touch', note: '' } }] },
  ];
}

function world(store, request) {
  if (!Array.isArray(request.users) || request.users.length === 0) return fail(400, 'BAD_INPUT', 'A world needs users.');
  const ws = store.newWorkspace(request.companyName ?? 'Example Bakery Ltd');
  ws.settings = { plan: request.plan ?? 'business', credits: request.credits ?? 10, aiConsent: request.aiConsent ?? true, advancedEditorGrant: request.advancedEditorGrant ?? false, areasOff: request.areasOff ?? [] };
  const users = {};
  const byKey = {};
  for (const u of request.users) {
    const user = store.newUser(ws.id, u.key, u.name);
    byKey[u.key] = user;
    users[u.key] = { userId: user.id, email: user.email, password: randomBytes(12).toString('base64url') };
  }
  const sites = {};
  for (const spec of request.sites ?? []) {
    const business = spec.businessName ?? 'Example Bakery';
    const site = store.newSite(ws.id, { name: spec.name ?? `${business} site`, businessName: business });
    for (const [key, role] of Object.entries(spec.members ?? {})) {
      if (!byKey[key] || !ROLES.includes(role)) return fail(400, 'BAD_INPUT', `Unknown member ${key} or role ${role}.`);
      site.members.set(byKey[key].id, role);
    }
    const pages = {};
    for (const p of spec.pages ?? defaultPages(business)) {
      const page = store.addPage(site, { key: p.key, title: p.title, kind: p.kind ?? 'page', slug: p.key });
      const sections = {};
      for (const s of p.sections ?? []) {
        const type = KIT_TYPES[s.type] ?? s.type;
        sections[s.key] = store.addSection(page, { key: s.key, type, content: ourContent(s.content) }).id;
      }
      pages[p.key] = { pageId: page.id, sections };
    }
    if (spec.published) store.publish(site);
    // Records (leads, products, …) belong to tools this server does not have; each gets an id only.
    const records = Object.fromEntries(Object.entries(spec.records ?? {}).map(([kind, list]) => [kind, list.map((_, i) => `${kind}_${site.id}_${i}`)]));
    sites[spec.key] = { websiteId: site.id, pages, records };
  }
  return ok({ workspaceId: ws.id, users, sites, sectionVocabulary: { types: KIT_TYPES, fields: KIT_FIELDS } });
}

function connectionView(c) {
  return { connectionId: c.id, reach: c.reach, scopes: c.scopes, presetLabel: c.presetLabel, tokenPrefix: c.tokenPrefix, createdBy: c.createdBy, websiteId: c.websiteId, createdAt: c.createdAt, kind: 'api-token' };
}

function connection(store, request) {
  const user = store.users.get(request.userId);
  if (!user) return fail(404, 'MISSING', 'No such user.');
  const site = store.sites.get(request.websiteId ?? '');
  if (!site) return fail(400, 'BAD_INPUT', 'This server makes connections from a website\'s Developers settings: name the website.');
  // §2.1: only a site owner can create connections.
  if (site.members.get(user.id) !== 'owner') return fail(403, 'owner_only', 'Only an owner of the website can create connections.');
  const reach = request.reach ?? 'website';
  if (!['website', 'workspace'].includes(reach)) return fail(400, 'BAD_INPUT', 'Reach is website or workspace.');
  const createdAt = request.createdAt ?? new Date(store.now(site.workspaceId)).toISOString();
  const created = Date.parse(createdAt);
  let scopes;
  let presetLabel = 'Custom';
  if (request.preset !== undefined) {
    const preset = PRESETS[request.preset];
    if (!preset) return fail(400, 'BAD_INPUT', `Presets: ${Object.keys(PRESETS).join(', ')}.`);
    // §2.1: a connection made under the earlier, narrower full is shown as Custom.
    if (request.preset === 'full' && created < FULL_WIDENED_AT) scopes = ALL_SCOPES.filter((s) => !['ai:generate', 'workspace:write', 'domain:read'].includes(s));
    else ({ scopes, label: presetLabel } = preset);
  } else {
    const unknown = (request.scopes ?? []).filter((s) => !ALL_SCOPES.includes(s));
    if (unknown.length) return fail(400, 'BAD_INPUT', `Unknown scopes: ${unknown.join(', ')}.`);
    // §2.2: site:read is always on; content:write is on unless the owner ticks otherwise.
    scopes = request.scopes ? [...new Set(['site:read', ...request.scopes])] : ['site:read', 'content:write'];
  }
  scopes = scopes.filter((s) => !(SCOPE_SINCE[s] > created));
  const { connection: c, token } = store.newConnection({ user, websiteId: site.id, workspaceId: site.workspaceId, reach, scopes, presetLabel, createdAt });
  return ok({ ...connectionView(c), token });
}

function decide(store, reviewId, decision, { userId }) {
  const card = store.review(reviewId);
  if (!card) return fail(404, 'MISSING', 'No such review card.');
  if (card.collected) return fail(409, 'PLAN_TIMED_OUT', 'This review card expired.');
  const site = store.sites.get(card.websiteId);
  // §2.6, §3: the approver is a signed-in owner of the site and the connection's creator.
  if (site.members.get(userId) !== 'owner' || card.createdBy !== userId) return fail(403, 'NOT_YOURS', 'Only the website owner who made the connection decides on its review cards.');
  if (card.state !== 'waiting') return fail(409, 'ALREADY_DECIDED', `This review card is ${card.state}.`);
  card.state = decision === 'approve' ? 'approved' : 'rejected';
  return ok({ status: card.state });
}

function appEdit(store, { userId, websiteId, sectionId, field, text }) {
  const site = store.sites.get(websiteId);
  if (!site) return fail(404, 'MISSING', 'No such website.');
  if (!['owner', 'editor'].includes(site.members.get(userId))) return fail(403, 'NOT_YOURS', 'Only an owner or editor edits the site.');
  const found = store.findSection(site, sectionId);
  if (!found) return fail(404, 'MISSING', 'No such section.');
  const fields = SECTION_TYPES[found.section.type] ?? Object.keys(found.section.content);
  if (!fields.includes(field) || typeof text !== 'string') return fail(400, 'BAD_INPUT', `A ${found.section.type} section has the fields ${fields.join(', ')}.`);
  found.section.content[field] = text;
  found.section.rev += 2;
  store.touch(site, `section ${found.page.key}/${found.section.key}`, `text ${field} (app)`);
  return ok({ rev: found.section.rev, siteRevision: site.revision });
}

function siteState(store, site) {
  return {
    websiteId: site.id,
    workspaceId: site.workspaceId,
    siteRevision: site.revision,
    publishedRevision: site.live?.revision ?? null,
    draftFingerprint: store.fingerprint(store.draftOf(site)),
    publishedFingerprint: site.live ? store.fingerprint(site.live.pages) : null,
    status: site.online ? 'published' : 'unpublished',
  };
}

/** Answers [status, body] for one fixtures request; `path` is what follows /test-fixtures/v1. */
export function fixturesRoute(store, method, path, query, body) {
  const m = (re) => re.exec(path);
  let hit;
  if (method === 'GET' && path === '') return ok({ protocol: 'site-mcp-fixtures', version: 1, supports: SUPPORTS });
  if (method === 'POST' && path === '/worlds') return world(store, body);
  if (method === 'POST' && path === '/connections') return connection(store, body);
  if (method === 'GET' && (hit = m(/^\/connections\/([^/]+)$/))) {
    const c = store.connections.get(decodeURIComponent(hit[1]));
    return c ? ok(connectionView(c)) : fail(404, 'MISSING', 'No such connection.');
  }
  if (method === 'GET' && (hit = m(/^\/connections\/([^/]+)\/plans$/))) {
    const c = store.connections.get(decodeURIComponent(hit[1]));
    if (!c) return fail(404, 'MISSING', 'No such connection.');
    const cards = [...store.reviews.values()].filter((r) => r.connectionId === c.id).sort((a, b) => b.seq - a.seq);
    return ok({ plans: cards.map((r) => ({ planId: r.id, createdAt: new Date(r.createdAt).toISOString(), status: r.state, websiteId: r.websiteId })) });
  }
  if (method === 'GET' && (hit = m(/^\/connections\/([^/]+)\/activity$/))) {
    const c = store.connections.get(decodeURIComponent(hit[1]));
    if (!c) return fail(404, 'MISSING', 'No such connection.');
    const cutoff = store.now(c.workspaceId) - RETENTION_MS;
    const kept = store.activity.get(c.id).filter((e) => Date.parse(e.at) >= cutoff);
    store.activity.set(c.id, kept);
    return ok({ entries: kept });
  }
  if (method === 'POST' && path === '/memberships') {
    const site = store.sites.get(body.websiteId);
    if (!site || !store.users.get(body.userId)) return fail(404, 'MISSING', 'No such website or user.');
    if (body.role === null) site.members.delete(body.userId);
    else if (ROLES.includes(body.role)) site.members.set(body.userId, body.role);
    else return fail(400, 'BAD_INPUT', 'Roles: owner, editor, viewer, or null.');
    return ok();
  }
  if (method === 'POST' && (hit = m(/^\/workspaces\/([^/]+)\/(settings|clock)$/))) {
    const ws = store.workspaces.get(decodeURIComponent(hit[1]));
    if (!ws) return fail(404, 'MISSING', 'No such workspace.');
    if (hit[2] === 'settings') {
      Object.assign(ws.settings, body);
      return ok();
    }
    if (!Number.isInteger(body.advanceSeconds) || body.advanceSeconds < 1) return fail(400, 'BAD_INPUT', 'advanceSeconds: a whole number of seconds.');
    ws.clockOffsetMs += body.advanceSeconds * 1000;
    return ok({ now: new Date(store.now(ws.id)).toISOString() });
  }
  if (method === 'POST' && path === '/app-edits') return appEdit(store, body);
  if (method === 'POST' && (hit = m(/^\/plans\/([^/]+)\/(approve|decline)$/))) return decide(store, decodeURIComponent(hit[1]), hit[2], body);
  if (method === 'GET' && (hit = m(/^\/plans\/([^/]+)$/))) {
    const card = store.review(decodeURIComponent(hit[1]));
    if (!card || card.collected || card.workspaceId !== query.get('workspaceId')) return fail(404, 'MISSING', 'No such review card.');
    return ok({ planId: card.id, status: card.state, kind: card.kind, websiteId: card.websiteId, expiresAt: new Date(card.expiresAt).toISOString() });
  }
  if (method === 'GET' && (hit = m(/^\/sites\/([^/]+)$/))) {
    const site = store.sites.get(decodeURIComponent(hit[1]));
    return site ? ok(siteState(store, site)) : fail(404, 'MISSING', 'No such website.');
  }
  // Not a part we support (the handshake does not list dns-resolver: we have no domain tools), but the kit calls it
  // at the start of every run whatever the handshake says; accepting and ignoring it is the least we can do.
  if (method === 'POST' && path === '/dns-resolver') return ok();
  return fail(404, 'MISSING', 'No such fixture.');
}
