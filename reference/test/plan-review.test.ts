// What the plan review page says goes live, checked on the pure function the page renders:
// for a publish, only the sections whose text differs between live and draft; a product, a document without its
// customer's contact details, an invitation's address and level, a company's name — in plain words.
import { describe, expect, it } from 'vitest';
import type { Plan, Section, Site } from '../domain/model.js';
import { newSite } from '../domain/site.js';
import { planReview } from '../web/plan-review.js';

const section = (key: string, type: Section['type'], content: Record<string, unknown>): Section => ({ sectionId: `sec_${key}`, key, type, content, layout: {}, rev: 1, hidden: false });
const page = (sections: Section[]) => ({ pageId: 'page_home', key: 'home', slug: 'home', title: 'Home', kind: 'page' as const, hidden: false, seo: { title: '', description: '' }, sections });
const plan = (kind: Plan['kind'], params: Record<string, unknown> = {}, pinned: Plan['pinned'] = {}): Plan => ({ planId: 'plan_1', kind, connectionId: 'conn_1', websiteId: 'site_1', status: 'awaiting_approval', createdAt: '', expiresAt: '', pinned, params, summary: 'internal summary' });

function site(): Site {
  const s = newSite({ name: 'Olive Bakery', businessName: 'Olive Bakery', members: {}, now: new Date('2026-11-01T00:00:00Z') });
  s.draft.pages = [page([section('hero', 'hero', { heading: 'New heading', subheading: 'Same' }), section('intro', 'text', { body: 'Unchanged' }), section('faq', 'faq', { items: [{ question: 'Q?', answer: 'A.' }] })])];
  s.published = { revision: 1, publishedAt: '2026-11-01T00:00:00Z', content: { ...structuredClone(s.draft), pages: [page([section('hero', 'hero', { heading: 'Old heading', subheading: 'Same' }), section('intro', 'text', { body: 'Unchanged' }), section('old', 'cta', { heading: 'Gone', buttonLabel: 'x', buttonHref: '/x' })])] } };
  s.siteRevision = 3;
  s.records.products.push({ productId: 'product_1', name: 'Sourdough loaf', price: { amount: 6, currency: 'EUR' }, description: 'Crusty' });
  s.records.documents.push({ documentId: 'doc_1', kind: 'invoice', number: 'INV-7', title: 'October bread', total: { amount: 120, currency: 'EUR' }, customerEmail: 'anna@example.com', customerAddress: 'Main St 1' });
  return s;
}

describe('plan review', () => {
  it('a publish lists only the sections whose text differs, added and removed ones, in plain words', () => {
    const review = planReview(plan('publish', {}, { siteRevision: 3 }), site());
    expect(review.changes).toEqual([
      { where: 'Home › Banner', what: 'changed', fields: [{ field: 'Heading', before: 'Old heading', after: 'New heading' }] },
      { where: 'Home › Questions and answers', what: 'added', fields: [{ field: 'Item 1 question', before: '', after: 'Q?' }, { field: 'Item 1 answer', before: '', after: 'A.' }] },
      { where: 'Home › Call to action', what: 'removed', fields: [] },
    ]);
    expect(review.notes).toEqual([]);
    expect(JSON.stringify(review)).not.toMatch(/revision|kind|internal summary/);
  });

  it('a publish whose draft moved on says the confirm will be refused; one with nothing live says everything goes live', () => {
    expect(planReview(plan('publish', {}, { siteRevision: 2 }), site()).notes.join(' ')).toMatch(/changed after this plan was prepared/);
    const unpublished = site();
    unpublished.published = null;
    const review = planReview(plan('publish', {}, { siteRevision: 3 }), unpublished);
    expect(review.notes.join(' ')).toMatch(/Nothing of this website is live yet/);
    expect(review.changes.every((c) => c.what === 'added')).toBe(true);
  });

  it('a product, a document without contact details, an invitation and a company are named', () => {
    expect(planReview(plan('publish_product', { productId: 'product_1' }), site()).facts).toEqual([{ term: 'Product', value: 'Sourdough loaf' }, { term: 'Price', value: '€6.00' }, { term: 'Description', value: 'Crusty' }]);
    const doc = planReview(plan('send_document', { documentId: 'doc_1' }), site());
    expect(doc.facts).toEqual([{ term: 'Document', value: 'Invoice INV-7' }, { term: 'Title', value: 'October bread' }, { term: 'Total', value: '€120.00' }]);
    expect(JSON.stringify(doc)).not.toMatch(/anna@example.com|Main St/);
    expect(planReview(plan('grant_access', { email: 'eddie@example.com', level: 'editor' }), site()).facts).toEqual([{ term: 'Email address', value: 'eddie@example.com' }, { term: 'Access', value: 'Editor: can change the website' }]);
    expect(planReview(plan('create_company', { companyName: 'Olive Catering' }), site()).facts).toEqual([{ term: 'Company name', value: 'Olive Catering' }]);
    expect(planReview(plan('unpublish'), site()).action).toBe('Take Olive Bakery off its public address. Visitors will no longer see it.');
  });
});
