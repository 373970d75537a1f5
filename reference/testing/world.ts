// Builds a whole workspace (company, users, sites, pages, records) in one go, for the fixtures protocol's
// POST /worlds (test mode). It uses the domain's own constructors (newWorkspaceDoc, newUser, newSite, addPage),
// the ones the demo seed and the tools use, so a conformance world is made of the records the product makes.
import { randomBytes } from 'node:crypto';
import type { Site } from '../domain/model.js';
import type { Role } from '../domain/vocabulary.js';
import { newId } from '../domain/ids.js';
import { DomainError } from '../domain/errors.js';
import type { SiteSpec, WorldRequest, WorldResponse } from '../../generated/schemas/fixtures/fixtures.js';
import { lookupsOfNew, newUser, newWorkspaceDoc } from '../domain/workspace.js';
import { addPage, liveAddress, newSite, recordChange, starterPages } from '../domain/site.js';
import { isSectionType, sectionFieldNames, sectionTypes } from '../domain/section-content.js';
import type { Store } from '../infra/store/store.js';

export type { WorldRequest, WorldResponse };

const RECORD_ID_FIELD: Record<keyof Site['records'], string> = {
  leads: 'leadId',
  bookings: 'bookingId',
  contacts: 'contactId',
  products: 'productId',
  services: 'serviceId',
  documents: 'documentId',
  domains: 'hostname',
};


/** A world built without passwordsOnDemand: every user has their password. */
export type WorldWithPasswords = WorldResponse & { users: Record<string, NonNullable<WorldResponse['users'][string]> & { password: string }> };

/** `baseUrl`: the server's, so the answer can say where each site's live version is served (publicUrl). */
export async function buildWorld(store: Store, request: WorldRequest & { passwordsOnDemand?: false }, now: Date, options?: { baseUrl?: string }): Promise<WorldWithPasswords>;
export async function buildWorld(store: Store, request: WorldRequest, now: Date, options?: { baseUrl?: string }): Promise<WorldResponse>;
export async function buildWorld(store: Store, request: WorldRequest, now: Date, { baseUrl }: { baseUrl?: string } = {}): Promise<WorldResponse> {
  // This server's vocabulary is the kit's (rule section-types): each name maps to itself.
  const identity = (names: string[]) => Object.fromEntries(names.map((n) => [n, n]));
  const response: WorldResponse = { workspaceId: '', users: {}, sites: {}, sectionVocabulary: { types: identity(sectionTypes()), fields: identity(sectionFieldNames()) } };
  const userIds = new Map<string, string>();
  const ownerKey = request.users.find((u) => u.companyOwner)?.key ?? request.users[0]?.key;
  const doc = newWorkspaceDoc(
    {
      companyName: request.companyName ?? 'Example Bakery Ltd',
      plan: request.plan ?? 'business',
      credits: request.credits ?? 10,
      aiConsent: request.aiConsent ?? true,
      advancedEditorGrant: request.advancedEditorGrant ?? false,
      areasOff: request.areasOff ?? [],
      ownerUserId: '',
      billing: { monthlyCreditReset: true, trialEndsAt: null, paymentCustomerId: null },
    },
    now,
  );
  const workspaceId = doc.id;
  response.workspaceId = workspaceId;
  const keys = new Set<string>();
  for (const u of request.users) {
    if (keys.has(u.key)) throw new DomainError('validation_failed', `duplicate user key "${u.key}"`);
    keys.add(u.key);
  }
  // Each password is one scrypt (about 40 ms of CPU in the thread pool): hashed side by side rather than one
  // after another, and not at all when the kit asks for passwords on demand (it signs in as few world users;
  // POST /users/{userId}/password gives one a password then).
  const users = await Promise.all(
    request.users.map(async (u) => {
      const password = request.passwordsOnDemand ? undefined : randomBytes(12).toString('base64url');
      const user = await newUser(u.name ?? u.key, (userId) => `${u.key}.${userId.slice(5).toLowerCase()}@example.test`, password);
      return { key: u.key, user, password };
    }),
  );
  for (const { key, user, password } of users) {
    const { userId, email } = user;
    doc.users[userId] = user;
    userIds.set(key, userId);
    response.users[key] = password === undefined ? { userId, email } : { userId, email, password };
  }
  doc.ownerUserId = userIds.get(ownerKey!)!;
  for (const s of request.sites ?? []) {
    if (response.sites[s.key]) throw new DomainError('validation_failed', `duplicate site key "${s.key}"`);
    const members: Record<string, Role> = {};
    for (const [key, role] of Object.entries(s.members)) {
      const userId = userIds.get(key);
      if (!userId) throw new DomainError('validation_failed', `site "${s.key}" names unknown user "${key}"`);
      if (role) members[userId] = role;
    }
    const businessName = s.businessName ?? 'Example Bakery';
    const site = newSite({ name: s.name ?? `${businessName} site`, businessName, members, now });
    const pagesOut: NonNullable<WorldResponse['sites'][string]>['pages'] = {};
    for (const requested of s.pages ?? starterPages(businessName)) {
      const p = withSectionTypes(requested, s.key);
      const page = addPage(site, p);
      const sectionsOut = Object.fromEntries((p.sections ?? []).map((sec, i) => [sec.key, page.sections[i]!.sectionId]));
      pagesOut[p.key] = { pageId: page.pageId, sections: sectionsOut };
    }
    recordChange(site, now, 'seed', 'Site created with its pages');
    const recordsOut: Record<string, string[]> = {};
    for (const [kind, items] of Object.entries(s.records ?? {}) as [keyof Site['records'], Record<string, unknown>[]][]) {
      const idField = RECORD_ID_FIELD[kind];
      if (!idField) throw new DomainError('validation_failed', `unknown record kind "${kind}"`);
      recordsOut[kind] = [];
      for (const item of items) {
        const id = kind === 'domains' ? String(item.hostname) : newId(kind.slice(0, -1));
        site.records[kind].push({ ...item, [idField]: id, websiteId: site.websiteId, createdAt: now.toISOString() });
        recordsOut[kind].push(id);
      }
    }
    if (s.published) {
      site.published = { revision: site.siteRevision, publishedAt: now.toISOString(), content: structuredClone(site.draft) };
    }
    doc.sites[site.websiteId] = site;
    response.sites[s.key] = { websiteId: site.websiteId, pages: pagesOut, records: recordsOut, ...(baseUrl ? { publicUrl: liveAddress(baseUrl, site.websiteId) } : {}) };
  }
  await store.create(doc, lookupsOfNew(doc));
  return response;
}

/**
 * A requested page whose sections name section types this server has: the protocol takes any string (another
 * target has its own types, rule section-types), and this server refuses one it cannot store.
 */
function withSectionTypes(page: NonNullable<SiteSpec['pages']>[number], siteKey: string): Parameters<typeof addPage>[1] {
  const sections = (page.sections ?? []).map((section) => {
    const { type } = section;
    if (!isSectionType(type)) throw new DomainError('validation_failed', `site "${siteKey}" page "${page.key}": unknown section type "${type}"`);
    return { ...section, type };
  });
  return { ...page, sections };
}
