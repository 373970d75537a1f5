// The Bakehouse server's whole state, in memory: workspaces, people, sites, connections, review cards (plans) and
// the activity log. Written from the source document (agent-mcp-interface.md) alone; every "not shown" point is a
// choice of this server (README.md, "Our choices").
import { createHash, randomBytes, randomUUID } from 'node:crypto';

// Our revision scheme: a draft starts at revision 0 and every saved change moves it on by REVISION_STEP.
export const REVISION_STEP = 5;
// Our section vocabulary: section type → its editable text fields.
export const SECTION_TYPES = {
  banner: ['title', 'tagline', 'ctaText', 'ctaLink'],
  paragraph: ['title', 'copy'],
  'contact-form': ['title', 'note'],
};
// Our presets (the source names only `full`, §2.1); label shown in the Developers settings.
export const ALL_SCOPES = ['site:read', 'content:write', 'publish', 'ai:generate', 'crm:read', 'crm:write', 'settings:write', 'domain:write', 'domain:read', 'access:write', 'communications:write', 'commerce:write', 'workspace:write'];
// §9.2: from 2026-08-15 `full` covers every scope; before, it lacked ai:generate, workspace:write and domain:read.
export const FULL_WIDENED_AT = Date.parse('2026-08-15T00:00:00Z');
const NARROW_FULL = ALL_SCOPES.filter((s) => !['ai:generate', 'workspace:write', 'domain:read'].includes(s));
export const PRESETS = { full: { label: 'Everything', scopes: ALL_SCOPES }, reader: { label: 'Look only', scopes: ['site:read'] }, author: { label: 'Writer', scopes: ['site:read', 'content:write'] } };
export const TOKEN_PREFIX = 'bkh2_live_';
export const PLAN_LIFETIME_MS = 5 * 60 * 1000;

const id = (kind) => `${kind}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
export const sha256 = (text) => createHash('sha256').update(text).digest('hex');

export class Store {
  workspaces = new Map(); // id → { id, name, clockOffsetMs, settings }
  users = new Map(); // id → { id, email, name, workspaceId }
  sites = new Map(); // id → site (see newSite)
  connections = new Map(); // id → connection
  tokens = new Map(); // sha256(token) → connection id
  reviews = new Map(); // review id → review card
  collected = new Map(); // review id → workspace id, of cards removed after expiry (so a late confirm says "expired")
  activity = new Map(); // connection id → entries

  now(workspaceId) {
    return Date.now() + (this.workspaces.get(workspaceId)?.clockOffsetMs ?? 0);
  }

  newWorkspace(name) {
    const ws = { id: id('ws'), name, clockOffsetMs: 0, settings: {} };
    this.workspaces.set(ws.id, ws);
    return ws;
  }

  newUser(workspaceId, key, name) {
    const user = { id: id('usr'), email: `${key}-${randomBytes(4).toString('hex')}@bakehouse.example.test`, name: name ?? key, workspaceId };
    this.users.set(user.id, user);
    return user;
  }

  newSite(workspaceId, { name, businessName }) {
    const site = {
      id: id('web'),
      workspaceId,
      name,
      businessName,
      brand: { colours: { primary: '#1f4e79', secondary: '#f2a541', accent: '#3c9d9b', background: '#ffffff', text: '#1a1a1a' }, typeface: 'Georgia' },
      members: new Map(), // userId → owner | editor | viewer
      pages: [],
      revision: 0,
      live: null, // { revision, pages } once published
      online: false,
      changes: new Map(), // changed thing → entry, since the last publish
    };
    this.sites.set(site.id, site);
    return site;
  }

  addPage(site, { key, title, kind = 'page', slug }) {
    const page = { id: id('pg'), key, title, slug: slug ?? slugify(title), kind, seo: { title: null, description: null }, sections: [] };
    site.pages.push(page);
    return page;
  }

  addSection(page, { key, type, content }) {
    const section = { id: id('sec'), key, type, content: { ...content }, hidden: false, rev: 0 };
    page.sections.push(section);
    return section;
  }

  /** A saved change of the draft: the revision moves on and the thing changed is listed once. */
  touch(site, thing, what) {
    site.revision += REVISION_STEP;
    const entry = site.changes.get(thing) ?? { thing, edits: [] };
    entry.edits.push(what);
    entry.atRevision = site.revision;
    site.changes.set(thing, entry);
  }

  findSection(site, sectionId) {
    for (const page of site.pages) {
      const section = page.sections.find((s) => s.id === sectionId);
      if (section) return { page, section };
    }
    return undefined;
  }

  draftOf(site) {
    return site.pages.map((p) => ({ key: p.key, title: p.title, slug: p.slug, kind: p.kind, seo: p.seo, sections: p.sections.map((s) => ({ key: s.key, type: s.type, content: s.content, hidden: s.hidden, rev: s.rev })) }));
  }

  fingerprint(pages) {
    return sha256(JSON.stringify(pages));
  }

  publish(site) {
    site.live = { revision: site.revision, pages: structuredClone(this.draftOf(site)) };
    site.online = true;
    site.changes.clear();
  }

  newConnection({ user, websiteId, workspaceId, reach, scopes, presetLabel, createdAt }) {
    const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
    const connection = { id: id('con'), createdBy: user.id, workspaceId, websiteId, reach, scopes, presetLabel, createdAt, tokenHash: sha256(token), tokenPrefix: token.slice(0, 13) };
    this.connections.set(connection.id, connection);
    this.tokens.set(connection.tokenHash, connection.id);
    this.activity.set(connection.id, []);
    return { connection, token };
  }

  connectionByToken(token) {
    const connectionId = this.tokens.get(sha256(token));
    return connectionId ? this.connections.get(connectionId) : undefined;
  }

  /** A review card, or undefined once it expired: expired cards are removed when they are next looked at. */
  review(reviewId) {
    const card = this.reviews.get(reviewId);
    if (card && this.now(card.workspaceId) > card.expiresAt && card.state !== 'carried-out') {
      this.reviews.delete(reviewId);
      this.collected.set(reviewId, card.workspaceId);
    }
    if (this.collected.has(reviewId)) return { id: reviewId, workspaceId: this.collected.get(reviewId), state: 'expired', collected: true };
    return card;
  }
}

export function slugify(title) {
  return String(title).toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'page';
}
