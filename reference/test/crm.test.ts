// The CRM tools of the reference one by one (reference/tools/crm.ts; §2.5, §4.3): how a stored record reads when
// fields are missing, how a list filters and pages, what crm_update refuses and with which words, and what the
// activity log says. features/crm.feature checks the rules black-box; these pin what it leaves open (the mutants
// it leaves alive).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';
import type { WorldRequest } from '../../conformance/lib/fixtures-client.js';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('crm');
});
afterAll(async () => {
  await test?.stop();
});

type Page = { items: Record<string, unknown>[]; nextCursor: string | null };

async function crmWorld(areasOff: NonNullable<WorldRequest['areasOff']> = []) {
  const c = await ownerWithConnection(test, ['crm:read', 'crm:write'], {
    areasOff,
    sites: [
      {
        key: 'main',
        members: { owner: 'owner' },
        records: {
          leads: [{ name: 'Ann', email: 'ann@example.test', phone: '+1 555', message: 'Call me' }, { status: 'contacted', handled: true, note: 'Rang', followUpAt: '2031-01-01T00:00:00.000Z' }, {}],
          bookings: [{ name: 'Bo', email: 'bo@example.test', phone: '+2', serviceName: 'Haircut', startsAt: '2031-02-02T10:00:00.000Z' }, { status: 'cancelled' }, { status: 'completed' }],
          contacts: [{ name: 'Cy', email: 'cy@example.test', phone: '+3' }, { status: 'archived' }],
        },
      },
    ],
  });
  const ids = c.world.sites.main!.records as Record<'leads' | 'bookings' | 'contacts', string[]>;
  const call = async (tool: string, args: Record<string, unknown> = {}) => (await c.mcp.callTool(tool, args)).envelope;
  const list = async (tool: string, args: Record<string, unknown> = {}) => {
    const envelope = await call(tool, args);
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    return envelope.data as Page;
  };
  const activity = async () => (await test.fx.activity(c.connectionId)).entries.map((e) => String(e.summary ?? ''));
  return { ...c, ids, call, list, activity };
}

describe('the CRM views', () => {
  it('a lead reads with its visitor text in the untrusted envelope, and defaults where the record says nothing', async () => {
    const w = await crmWorld();
    const { items } = await w.list('list_leads');
    expect(items[0]).toMatchObject({ leadId: w.ids.leads[0], websiteId: w.websiteId, status: 'new', handled: false, note: null, followUpAt: null, visitorText: { untrusted: true, name: 'Ann', email: 'ann@example.test', phone: '+1 555', message: 'Call me' } });
    expect(typeof items[0]!.createdAt).toBe('string');
    expect(items[1]).toMatchObject({ status: 'contacted', handled: true, note: 'Rang', followUpAt: '2031-01-01T00:00:00.000Z' });
    expect(items[2]!.visitorText).toEqual({ untrusted: true, name: '', email: '', phone: '', message: '' });
    await w.mcp.close();
  });

  it('a booking starts when it says, else when it was made; its customer and service default to empty', async () => {
    const w = await crmWorld();
    const { items } = await w.list('list_bookings');
    expect(items[0]).toMatchObject({ bookingId: w.ids.bookings[0], websiteId: w.websiteId, status: 'confirmed', handled: false, note: null, startsAt: '2031-02-02T10:00:00.000Z', serviceName: 'Haircut', customer: { name: 'Bo', email: 'bo@example.test', phone: '+2' } });
    expect(items[1]).toMatchObject({ status: 'cancelled', serviceName: '', customer: { name: '', email: '', phone: '' } });
    // Every record of a world is made at the same moment: the lead's createdAt is the booking's too.
    const made = (await w.list('list_leads')).items[0]!.createdAt;
    expect(items[1]!.startsAt).toBe(made);
    await w.mcp.close();
  });

  it('a contact reads its own fields, active unless it says otherwise', async () => {
    const w = await crmWorld();
    const { items } = await w.list('list_contacts');
    expect(items[0]).toMatchObject({ contactId: w.ids.contacts[0], websiteId: w.websiteId, status: 'active', handled: false, note: null, name: 'Cy', email: 'cy@example.test', phone: '+3' });
    expect(typeof items[0]!.createdAt).toBe('string');
    expect(items[1]).toMatchObject({ status: 'archived', name: '', email: '', phone: '' });
    await w.mcp.close();
  });
});

describe('filtering and paging', () => {
  it('filters by status, pages by the last id returned, and says when there is no next page', async () => {
    const w = await crmWorld();
    expect((await w.list('list_leads', { status: 'contacted' })).items.map((l) => l.leadId)).toEqual([w.ids.leads[1]]);
    const first = await w.list('list_leads', { limit: 2 });
    expect(first.items.map((l) => l.leadId)).toEqual(w.ids.leads.slice(0, 2));
    expect(first.nextCursor).toBe(w.ids.leads[1]);
    const second = await w.list('list_leads', { limit: 2, cursor: first.nextCursor });
    expect(second.items.map((l) => l.leadId)).toEqual(w.ids.leads.slice(2));
    expect(second.nextCursor).toBeNull();
    // Exactly a page's worth left: no next page either.
    expect((await w.list('list_leads', { limit: 3 })).nextCursor).toBeNull();
    // A cursor that names no record starts from the beginning.
    expect((await w.list('list_leads', { limit: 1, cursor: 'lead_unknown' })).items.map((l) => l.leadId)).toEqual([w.ids.leads[0]]);
    // The cursor is the last item returned, whatever the page size, for every list.
    expect((await w.list('list_leads', { limit: 1 })).nextCursor).toBe(w.ids.leads[0]);
    for (const [tool, kind, idField] of [['list_bookings', 'bookings', 'bookingId'], ['list_contacts', 'contacts', 'contactId']] as const) {
      const page1 = await w.list(tool, { limit: 1 });
      expect(page1.nextCursor, tool).toBe(w.ids[kind][0]);
      const page2 = await w.list(tool, { limit: 1, cursor: page1.nextCursor });
      expect(page2.items.map((r) => r[idField]), tool).toEqual([w.ids[kind][1]]);
    }
    // Without a limit, up to 50 come back.
    expect((await w.list('list_contacts')).items).toHaveLength(2);
    await w.mcp.close();
  });

  it('the activity log counts what each list returned', async () => {
    const w = await crmWorld();
    await w.list('list_leads', { limit: 2 });
    await w.list('list_bookings');
    await w.list('list_contacts', { status: 'archived' });
    const summaries = await w.activity();
    expect(summaries).toEqual(expect.arrayContaining(['leads listed (2)', 'bookings listed (3)', 'contacts listed (1)']));
    await w.mcp.close();
  });
});

describe('crm_update', () => {
  it('writes only the fields given and names them in its answer and in the activity log', async () => {
    const w = await crmWorld();
    const answer = await w.call('crm_update', { recordType: 'contact', recordId: w.ids.contacts[0], changes: { handled: true } });
    expect(answer).toMatchObject({ ok: true, data: { recordType: 'contact', recordId: w.ids.contacts[0], changedFields: ['handled'] } });
    expect((await w.list('list_contacts')).items[0]).toMatchObject({ handled: true, status: 'active', note: null });
    expect(await w.activity()).toContain('contact updated: handled');
    // Several fields are named in order, comma-separated; a note cleared reads back as null again.
    await w.call('crm_update', { recordType: 'lead', recordId: w.ids.leads[1], changes: { status: 'qualified', note: null } });
    expect(await w.activity()).toContain('lead updated: status, note');
    expect((await w.list('list_leads')).items[1]).toMatchObject({ status: 'qualified', note: null });
    await w.mcp.close();
  });

  it('a booking becomes no_show only, from a booking that is neither cancelled nor completed; followUpAt is a lead field', async () => {
    const w = await crmWorld();
    const cancel = await w.call('crm_update', { recordType: 'booking', recordId: w.ids.bookings[0], changes: { status: 'cancelled' } });
    expect(cancel).toMatchObject({ ok: false, error: { code: 'not_available', details: { use: 'the app' } } });
    expect(cancel.error?.message).toContain('cannot be set to cancelled over MCP');
    for (const [index, status] of [[1, 'cancelled'], [2, 'completed']] as const) {
      const refused = await w.call('crm_update', { recordType: 'booking', recordId: w.ids.bookings[index], changes: { status: 'no_show' } });
      expect(refused).toMatchObject({ ok: false, error: { code: 'not_available', message: `This booking is ${status}; it cannot be changed by crm_update.` } });
    }
    // A note on a cancelled booking is fine: only its status is frozen.
    expect(await w.call('crm_update', { recordType: 'booking', recordId: w.ids.bookings[1], changes: { note: 'Refunded' } })).toMatchObject({ ok: true, data: { changedFields: ['note'] } });
    const followUp = await w.call('crm_update', { recordType: 'contact', recordId: w.ids.contacts[0], changes: { followUpAt: '2031-01-01T00:00:00.000Z' } });
    // The input schema already refuses it (the handler's own check behind it is not reached through the tool).
    expect(followUp).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await w.call('crm_update', { recordType: 'booking', recordId: w.ids.bookings[0], changes: { status: 'no_show' } })).toMatchObject({ ok: true, data: { changedFields: ['status'] } });
    // Refusals other than a missing record are not logged as a lookup miss.
    expect((await w.activity()).filter((summary) => summary.includes('lookup missed'))).toEqual([]);
    await w.mcp.close();
  });

  it('rule:authz-agency-area-off — with bookings switched off, a booking cannot be updated but a lead or contact still can', async () => {
    const w = await crmWorld(['bookings']);
    const refused = await w.call('crm_update', { recordType: 'booking', recordId: w.ids.bookings[0], changes: { handled: true } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'area_disabled', details: { cause: 'area-bookings-off', tool: 'crm_update' } } });
    expect(await w.call('crm_update', { recordType: 'lead', recordId: w.ids.leads[0], changes: { handled: true } })).toMatchObject({ ok: true });
    expect(await w.call('crm_update', { recordType: 'contact', recordId: w.ids.contacts[0], changes: { handled: true } })).toMatchObject({ ok: true });
    await w.mcp.close();
  });

  it('a missing record is logged as a miss of that record type', async () => {
    const w = await crmWorld();
    const missing = await w.call('crm_update', { recordType: 'lead', recordId: 'lead_missing', changes: { handled: true } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await w.activity()).toContain('lead lookup missed');
    await w.mcp.close();
  });
});
