// Builds a whole workspace (company, users, sites, pages, records) in one go. The fixtures protocol's
// POST /worlds and the demo seed both use it, so a conformance world and the demo are made the same way.
import { randomBytes } from 'node:crypto';
import type { Site, WorkspaceDoc } from './model.js';
import type { Role } from './vocabulary.js';
import { newId } from './ids.js';
import { newWorkspaceDoc } from './workspace.js';
import { hashPassword } from './passwords.js';
import { newSection, newSite, recordChange, uniqueSlug } from './site.js';
import type { DirectoryKind, Store } from '../store/store.js';

export interface WorldRequest {
  companyName?: string;
  plan?: WorkspaceDoc['plan'];
  credits?: number;
  aiConsent?: boolean;
  advancedEditorGrant?: boolean;
  areasOff?: string[];
  users: { key: string; name?: string; companyOwner?: boolean }[];
  sites?: {
    key: string;
    name?: string;
    businessName?: string;
    members: Record<string, Role>;
    published?: boolean;
    pages?: { key: string; title: string; kind?: 'page' | 'post'; sections?: { key: string; type: string; content: Record<string, unknown> }[] }[];
    records?: Partial<Record<keyof Site['records'], Record<string, unknown>[]>>;
  }[];
}

export interface WorldResponse {
  workspaceId: string;
  users: Record<string, { userId: string; email: string; password: string }>;
  sites: Record<string, { websiteId: string; pages: Record<string, { pageId: string; sections: Record<string, string> }>; records: Record<string, string[]> }>;
}

const RECORD_ID_FIELD: Record<keyof Site['records'], string> = {
  leads: 'leadId',
  bookings: 'bookingId',
  contacts: 'contactId',
  products: 'productId',
  services: 'serviceId',
  documents: 'documentId',
  domains: 'hostname',
};

export class WorldError extends Error {}

/** The default pages of a seeded site when the request names none: enough for every content tool. */
export function defaultPages(businessName: string): NonNullable<NonNullable<WorldRequest['sites']>[number]['pages']> {
  return [
    {
      key: 'home',
      title: 'Home',
      sections: [
        { key: 'hero', type: 'hero', content: { heading: `Welcome to ${businessName}`, subheading: 'Fresh every morning', buttonLabel: 'Visit us', buttonHref: '/contact' } },
        { key: 'intro', type: 'text', content: { heading: 'About us', body: `${businessName} is a family business.` } },
      ],
    },
    { key: 'contact', title: 'Contact', sections: [{ key: 'form', type: 'contact', content: { heading: 'Get in touch', showForm: true } }] },
  ];
}

export async function buildWorld(store: Store, request: WorldRequest, now: Date): Promise<WorldResponse> {
  const response: WorldResponse = { workspaceId: '', users: {}, sites: {} };
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
  for (const u of request.users) {
    if (userIds.has(u.key)) throw new WorldError(`duplicate user key "${u.key}"`);
    const userId = newId('user');
    const password = randomBytes(12).toString('base64url');
    const email = `${u.key}.${userId.slice(5).toLowerCase()}@example.test`;
    doc.users[userId] = { userId, name: u.name ?? u.key, email, passwordHash: await hashPassword(password) };
    userIds.set(u.key, userId);
    response.users[u.key] = { userId, email, password };
  }
  doc.ownerUserId = userIds.get(ownerKey!)!;
  for (const s of request.sites ?? []) {
    if (response.sites[s.key]) throw new WorldError(`duplicate site key "${s.key}"`);
    const members: Record<string, Role> = {};
    for (const [key, role] of Object.entries(s.members)) {
      const userId = userIds.get(key);
      if (!userId) throw new WorldError(`site "${s.key}" names unknown user "${key}"`);
      members[userId] = role;
    }
    const businessName = s.businessName ?? 'Example Bakery';
    const site = newSite({ name: s.name ?? `${businessName} site`, businessName, members, now });
    const pagesOut: WorldResponse['sites'][string]['pages'] = {};
    for (const p of s.pages ?? defaultPages(businessName)) {
      const page = {
        pageId: newId('page'),
        key: p.key,
        slug: p.key === 'home' ? 'home' : uniqueSlug(site, p.title),
        title: p.title,
        kind: p.kind ?? 'page',
        hidden: false,
        seo: { title: p.title, description: '' },
        sections: [] as Site['draft']['pages'][number]['sections'],
      };
      const sectionsOut: Record<string, string> = {};
      for (const sec of p.sections ?? []) {
        const section = newSection(page, sec.type, structuredClone(sec.content), sec.key);
        page.sections.push(section);
        sectionsOut[sec.key] = section.sectionId;
      }
      site.draft.pages.push(page);
      pagesOut[p.key] = { pageId: page.pageId, sections: sectionsOut };
    }
    recordChange(site, now, 'seed', 'Site created with its pages');
    const recordsOut: Record<string, string[]> = {};
    for (const [kind, items] of Object.entries(s.records ?? {}) as [keyof Site['records'], Record<string, unknown>[]][]) {
      const idField = RECORD_ID_FIELD[kind];
      if (!idField) throw new WorldError(`unknown record kind "${kind}"`);
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
    response.sites[s.key] = { websiteId: site.websiteId, pages: pagesOut, records: recordsOut };
  }
  await store.create(doc, [
    ...Object.values(doc.sites).map((site): [DirectoryKind, string] => ['site', site.websiteId]),
    ...Object.values(doc.users).flatMap((user): [DirectoryKind, string][] => [['user', user.userId], ['email', user.email]]),
  ]);
  return response;
}
