// What a reviewed plan (§2.6) would put live, in plain words for the owner who approves it: for a publish, the
// sections whose text differs between the live site and the draft; for a product, the product; for a document
// send, the document without its customer's contact details; for an invitation, the address and level; for a
// company, its name. Read-only: it never changes the plan or the site.
import type { Page, Plan, Site } from '../domain/model.js';

export interface FieldChange { field: string; before: string; after: string }
export interface SectionChange { where: string; what: 'changed' | 'added' | 'removed'; fields: FieldChange[] }
export interface PlanReview {
  /** One line: what approving does. */
  action: string;
  /** Term/value pairs of what goes live (product, document, invitation, company, visibility). */
  facts: { term: string; value: string }[];
  /** For a publish: each section whose text differs between live and draft. */
  changes: SectionChange[];
  /** Sentences that qualify the review (nothing live yet; the draft moved after the plan was prepared). */
  notes: string[];
}

const SECTION_NAMES: Record<string, string> = {
  hero: 'Banner', text: 'Text', image: 'Image', services: 'Services', gallery: 'Gallery', faq: 'Questions and answers', cta: 'Call to action', contact: 'Contact', testimonials: 'Testimonials', captured: 'Captured region',
};

const FIELD_NAMES: Record<string, string> = {
  heading: 'Heading', subheading: 'Subheading', body: 'Text', buttonLabel: 'Button', buttonHref: 'Button link', caption: 'Caption', alt: 'Image description', imageUrl: 'Image', showForm: 'Contact form', showMap: 'Map',
  title: 'title', description: 'description', price: 'price', question: 'question', answer: 'answer', quote: 'quote', author: 'author', text: 'text', href: 'link',
};

/** The text fields of a section's content, by path ("heading", "items/0/title"), as a person reads them. */
function textFields(content: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof content === 'string') out.set(path, content);
  else if (typeof content === 'boolean') out.set(path, content ? 'yes' : 'no');
  else if (Array.isArray(content)) content.forEach((item, i) => textFields(item, path ? `${path}/${i}` : String(i)).forEach((v, k) => out.set(k, v)));
  else if (content && typeof content === 'object') {
    for (const [key, value] of Object.entries(content)) textFields(value, path ? `${path}/${key}` : key).forEach((v, k) => out.set(k, v));
  }
  return out;
}

/** "items/0/title" → "Item 1 title"; "heading" → "Heading". */
function fieldLabel(path: string): string {
  const parts = path.split('/');
  if (parts.length === 3 && /^\d+$/.test(parts[1]!)) return `${parts[0] === 'images' ? 'Image' : parts[0] === 'boxes' ? 'Box' : 'Item'} ${Number(parts[1]) + 1} ${FIELD_NAMES[parts[2]!] ?? parts[2]}`;
  return FIELD_NAMES[path] ?? path.replaceAll('/', ' ');
}

function publishChanges(site: Site): SectionChange[] {
  const live = site.published?.content.pages.filter((p) => !p.hidden) ?? [];
  const draft = site.draft.pages.filter((p) => !p.hidden);
  const changes: SectionChange[] = [];
  const byKey = (pages: Page[]) => new Map(pages.map((p) => [p.key, p]));
  const livePages = byKey(live);
  for (const page of draft) {
    const before = livePages.get(page.key);
    const liveSections = new Map((before?.sections ?? []).filter((s) => !s.hidden).map((s) => [s.key, s]));
    for (const section of page.sections.filter((s) => !s.hidden)) {
      const where = `${page.title} › ${SECTION_NAMES[section.type] ?? section.type}`;
      const was = liveSections.get(section.key);
      liveSections.delete(section.key);
      const after = textFields(section.content);
      if (!was) {
        changes.push({ where, what: 'added', fields: [...after].map(([field, value]) => ({ field: fieldLabel(field), before: '', after: value })) });
        continue;
      }
      const beforeFields = textFields(was.content);
      const fields = [...new Set([...beforeFields.keys(), ...after.keys()])]
        .filter((f) => beforeFields.get(f) !== after.get(f))
        .map((f) => ({ field: fieldLabel(f), before: beforeFields.get(f) ?? '', after: after.get(f) ?? '' }));
      if (fields.length) changes.push({ where, what: 'changed', fields });
    }
    for (const gone of liveSections.values()) changes.push({ where: `${page.title} › ${SECTION_NAMES[gone.type] ?? gone.type}`, what: 'removed', fields: [] });
    livePages.delete(page.key);
  }
  for (const gone of livePages.values()) changes.push({ where: `${gone.title} (the whole page)`, what: 'removed', fields: [] });
  return changes;
}

const money = (price: unknown): string => {
  const p = price as { amount?: unknown; currency?: unknown } | undefined;
  if (!p || typeof p.amount !== 'number' || typeof p.currency !== 'string') return '';
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: p.currency }).format(p.amount);
  } catch {
    return `${p.amount} ${p.currency}`;
  }
};

export function planReview(plan: Plan, site: Site | undefined): PlanReview {
  const name = site?.name ?? 'this website';
  const record = (kind: 'products' | 'documents', idField: string, id: unknown) => site?.records[kind].find((r) => r[idField] === id);
  switch (plan.kind) {
    case 'publish': {
      const notes: string[] = [];
      if (!site) return { action: `Publish ${name}.`, facts: [], changes: [], notes: ['This website no longer exists.'] };
      if (!site.published) notes.push('Nothing of this website is live yet: approving puts every visible page below on its public address.');
      if (plan.pinned.siteRevision !== undefined && plan.pinned.siteRevision !== site.siteRevision) {
        notes.push('The draft changed after this plan was prepared, so carrying it out will be refused; ask your assistant for a fresh plan. Below is the draft as it is now.');
      }
      const changes = publishChanges(site);
      if (site.published && !changes.length) notes.push('The draft has no text that differs from the live site.');
      return { action: `Publish the draft of ${name}: the live site becomes exactly this draft.`, facts: [], changes, notes };
    }
    case 'unpublish':
      return { action: `Take ${name} off its public address. Visitors will no longer see it.`, facts: [], changes: [], notes: [] };
    case 'search_visibility':
      return {
        action: plan.params.visible ? `Let search engines index ${name}.` : `Ask search engines not to index ${name}.`,
        facts: [{ term: 'Search engines', value: plan.params.visible ? 'may list the site' : 'are asked not to list the site' }],
        changes: [],
        notes: [],
      };
    case 'publish_product': {
      const product = record('products', 'productId', plan.params.productId);
      const facts = product
        ? [
            { term: 'Product', value: String(product.name ?? '') },
            ...(product.price ? [{ term: 'Price', value: money(product.price) }] : []),
            ...(product.description ? [{ term: 'Description', value: String(product.description) }] : []),
          ]
        : [];
      return { action: `Make this product public on ${name}.`, facts, changes: [], notes: product ? [] : ['This product no longer exists.'] };
    }
    case 'send_document': {
      const doc = record('documents', 'documentId', plan.params.documentId);
      // The document's summary only: never the customer's address, email or phone (rule sendable-documents-*).
      const facts = doc
        ? [
            { term: 'Document', value: `${doc.kind === 'quote' ? 'Quote' : doc.kind === 'invoice' ? 'Invoice' : String(doc.kind)} ${String(doc.number ?? '')}`.trim() },
            ...(doc.title ? [{ term: 'Title', value: String(doc.title) }] : []),
            ...(doc.total ? [{ term: 'Total', value: money(doc.total) }] : []),
          ]
        : [];
      return { action: 'Send this document to its customer by email.', facts, changes: [], notes: doc ? [] : ['This document no longer exists.'] };
    }
    case 'grant_access':
      return {
        action: `Invite one person to ${name} (this website only, not the whole workspace).`,
        facts: [
          { term: 'Email address', value: String(plan.params.email ?? '') },
          { term: 'Access', value: plan.params.level === 'editor' ? 'Editor: can change the website' : 'Viewer: can look, not change' },
        ],
        changes: [],
        notes: [],
      };
    case 'create_company':
      return {
        action: 'Create a new, empty company on the free plan (no website, no credits).',
        facts: [{ term: 'Company name', value: String(plan.params.companyName ?? '') }],
        changes: [],
        notes: [`${name} is only where you approve this; nothing on it changes.`],
      };
  }
  return { action: plan.summary, facts: [], changes: [], notes: [] };
}
