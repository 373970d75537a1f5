// The reviewed rail's tools of the reference (reference/tools/reviewed.ts; §1.6, §2.6, §4.3): what each prepare_*
// card tells the owner in its summary, the refusals at prepare time, what confirm_pending_action reports for the
// plans the features do not carry out, and the activity log's lines. features/reviewed-plans.feature checks the rail
// black-box; the summaries are the reference's own wording, which the kit does not compare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('reviewed');
});
afterAll(async () => {
  await test?.stop();
});

const SCOPES = ['site:read', 'publish', 'settings:write', 'commerce:write', 'access:write', 'communications:write', 'workspace:write'];

async function railWorld(published = true) {
  const c = await ownerWithConnection(test, SCOPES, {
    sites: [
      {
        key: 'main',
        name: 'Bakery',
        members: { owner: 'owner' },
        published,
        records: {
          products: [{ name: 'Loaf', price: { amount: 3, currency: 'EUR' }, revision: 2 }, { name: 'Bun', price: { amount: 1, currency: 'EUR' } }],
          documents: [
            { kind: 'invoice', number: 'I-1', title: 'T', status: 'draft', total: { amount: 1, currency: 'EUR' } },
            { kind: 'quote', title: 'Q', status: 'draft', total: { amount: 2, currency: 'EUR' } },
            { kind: 'invoice', number: 'I-0', title: 'Old', status: 'sent', total: { amount: 1, currency: 'EUR' } },
          ],
        },
      },
    ],
  });
  const ids = c.world.sites.main!.records as Record<'products' | 'documents', string[]>;
  const call = async (tool: string, args: Record<string, unknown> = {}) => (await c.mcp.callTool(tool, args)).envelope;
  const card = async (tool: string, args: Record<string, unknown> = {}) => {
    const envelope = await call(tool, args);
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    return envelope.data as { planId: string; summary: string; pinned: Record<string, unknown> };
  };
  /** Prepares, approves as the owner and confirms; resolves to confirm_pending_action's answer. */
  const carryOut = async (tool: string, args: Record<string, unknown> = {}) => {
    const { planId } = await card(tool, args);
    await test.fx.decide(planId, c.world.users.owner!.userId, 'approve');
    return call('confirm_pending_action', { planId });
  };
  const activity = async () => (await test.fx.activity(c.connectionId)).entries.map((e) => String(e.summary ?? ''));
  return { ...c, ids, call, card, carryOut, activity };
}

describe('prepare_* cards say what will happen', () => {
  it('each summary names the site and the subject, and each prepare is logged by its plan kind', async () => {
    const w = await railWorld();
    const siteRevision = (await w.card('prepare_publish')).pinned.siteRevision;
    expect((await w.card('prepare_publish')).summary).toBe(`Publish the draft of "Bakery" at revision ${siteRevision}: the live site becomes exactly this draft.`);
    expect((await w.card('prepare_unpublish')).summary).toBe('Take "Bakery" off its public address.');
    expect((await w.card('prepare_search_visibility', { visible: true })).summary).toBe('Let search engines index "Bakery".');
    expect((await w.card('prepare_search_visibility', { visible: false })).summary).toBe('Ask search engines not to index "Bakery".');
    expect((await w.card('prepare_publish_product', { productId: w.ids.products[0] })).summary).toBe('Make the product "Loaf" (revision 2) public on "Bakery".');
    // A product without a revision is revision 0, in the summary as in the pin.
    const bun = await w.card('prepare_publish_product', { productId: w.ids.products[1] });
    expect(bun.summary).toBe('Make the product "Bun" (revision 0) public on "Bakery".');
    expect(bun.pinned).toEqual({ productRevision: 0 });
    expect((await w.card('prepare_grant_access', { email: 'ed@example.test', level: 'editor' })).summary).toBe('Invite one person as editor of "Bakery" only (not the whole workspace).');
    expect((await w.card('prepare_send_document', { documentId: w.ids.documents[0] })).summary).toBe('Send invoice I-1 to its customer.');
    // A document without a number is named by its id.
    expect((await w.card('prepare_send_document', { documentId: w.ids.documents[1] })).summary).toBe(`Send quote ${w.ids.documents[1]} to its customer.`);
    expect((await w.card('prepare_create_company', { companyName: 'Acme' })).summary).toBe('Create a new company named "Acme" on plan free, with no website and no credits. "Bakery" is only where you approve it.');
    const log = await w.activity();
    for (const kind of ['publish', 'unpublish', 'search_visibility', 'publish_product', 'grant_access', 'send_document', 'create_company']) expect(log, kind).toContain(`${kind} plan prepared`);
    await w.mcp.close();
  });

  it('refuses to prepare what cannot be done: unpublishing a site that is not live, sending a document already sent', async () => {
    const w = await railWorld(false);
    expect(await w.call('prepare_unpublish')).toMatchObject({ ok: false, error: { code: 'validation_failed', message: '"Bakery" is not published, so there is nothing to unpublish.' } });
    expect(await w.call('prepare_send_document', { documentId: w.ids.documents[2] })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', message: 'This document was already sent or is not a draft; only never-sent drafts can be sent.' },
    });
    await w.mcp.close();
  });
});

describe('confirm_pending_action', () => {
  it('carries out search visibility as prepared, both ways, and logs each confirmation by kind', async () => {
    const w = await railWorld();
    expect(await w.carryOut('prepare_search_visibility', { visible: false })).toMatchObject({ ok: true, data: { result: { searchVisible: false } } });
    expect(await w.carryOut('prepare_search_visibility', { visible: true })).toMatchObject({ ok: true, data: { result: { searchVisible: true } } });
    expect(await w.activity()).toContain('search_visibility plan confirmed');
    await w.mcp.close();
  });

  it('rule:create-company-once — a company plan reports the company it created, by name and plan', async () => {
    const w = await railWorld();
    const done = await w.carryOut('prepare_create_company', { companyName: 'Acme' });
    expect(done.ok, JSON.stringify(done)).toBe(true);
    expect(done.data).toMatchObject({ kind: 'create_company', effect: 'Company "Acme" created on plan free.' });
    await w.mcp.close();
  });
});
