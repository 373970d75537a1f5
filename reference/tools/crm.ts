// CRM tools (§2.5, §4.3): list_leads, list_bookings, list_contacts (crm:read) and crm_update (crm:write).
// crm_update writes only status, handled, note and followUpAt (leads); it never deletes, never messages and
// never changes an email. Lead text comes from anonymous visitors: it is returned as data, marked untrusted.
import { DomainError, recordNotFound } from '../domain/errors.js';
import { checkWorkspaceGates } from '../domain/authorize.js';
import type { Booking, BookingStatus, Contact, ContactStatus, Lead, LeadStatus } from '../../generated/schemas/customer-records.js';
import { defineTool } from './types.js';

type RecordType = 'lead' | 'booking' | 'contact';
const COLLECTION = { lead: 'leads', booking: 'bookings', contact: 'contacts' } as const;
const ID_FIELD = { lead: 'leadId', booking: 'bookingId', contact: 'contactId' } as const;
const DEFAULT_STATUS = { lead: 'new', booking: 'confirmed', contact: 'active' } as const;

const str = (v: unknown) => (v === undefined || v === null ? null : String(v));

// Stored records are free-form (the fixtures protocol writes any fields), so a view reads each field as the
// output schema types it; the output check before commit catches a stored status outside the schema's values.

function leadView(r: Record<string, unknown>): Lead {
  return {
    leadId: String(r.leadId),
    websiteId: String(r.websiteId),
    // cast: a stored status is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema) (rule crm-status-values).
    status: (r.status as LeadStatus | undefined) ?? DEFAULT_STATUS.lead,
    handled: Boolean(r.handled),
    note: str(r.note),
    followUpAt: str(r.followUpAt),
    createdAt: String(r.createdAt),
    // Visitor-written fields travel in one marked envelope (rule crm-lead-text-is-data).
    visitorText: { untrusted: true, name: str(r.name) ?? '', email: str(r.email) ?? '', phone: str(r.phone) ?? '', message: str(r.message) ?? '' },
  };
}

function bookingView(r: Record<string, unknown>): Booking {
  return {
    bookingId: String(r.bookingId),
    websiteId: String(r.websiteId),
    // cast: a stored status is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema) (rule crm-status-values).
    status: (r.status as BookingStatus | undefined) ?? DEFAULT_STATUS.booking,
    handled: Boolean(r.handled),
    note: str(r.note),
    startsAt: String(r.startsAt ?? r.createdAt),
    serviceName: String(r.serviceName ?? ''),
    customer: { name: str(r.name) ?? '', email: str(r.email) ?? '', phone: str(r.phone) ?? '' },
  };
}

function contactView(r: Record<string, unknown>): Contact {
  return {
    contactId: String(r.contactId),
    websiteId: String(r.websiteId),
    // cast: a stored status is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema) (rule crm-status-values).
    status: (r.status as ContactStatus | undefined) ?? DEFAULT_STATUS.contact,
    handled: Boolean(r.handled),
    note: str(r.note),
    name: str(r.name) ?? '',
    email: str(r.email) ?? '',
    phone: str(r.phone) ?? '',
    createdAt: String(r.createdAt),
  };
}

/** Filters the views by status and pages them by the id of the last item returned. */
function page<T extends { status: string }>(all: T[], idOf: (item: T) => string, args: { status?: string; limit?: number; cursor?: string }) {
  const matching = all.filter((r) => !args.status || r.status === args.status);
  const start = args.cursor ? Math.max(0, matching.findIndex((r) => idOf(r) === args.cursor) + 1) : 0;
  const limit = args.limit ?? 50;
  const items = matching.slice(start, start + limit);
  const last = items.at(-1);
  return { items, nextCursor: last && start + limit < matching.length ? idOf(last) : null };
}

const list_leads = defineTool('list_leads', ({ site, args, note }) => {
  const answer = page(site.records.leads.map(leadView), (r) => r.leadId, args);
  note(`leads listed (${answer.items.length})`);
  return answer;
});

const list_bookings = defineTool('list_bookings', ({ site, args, note }) => {
  const answer = page(site.records.bookings.map(bookingView), (r) => r.bookingId, args);
  note(`bookings listed (${answer.items.length})`);
  return answer;
});

const list_contacts = defineTool('list_contacts', ({ site, args, note }) => {
  const answer = page(site.records.contacts.map(contactView), (r) => r.contactId, args);
  note(`contacts listed (${answer.items.length})`);
  return answer;
});

interface CrmChanges { status?: string; handled?: boolean; note?: string | null; followUpAt?: string | null }

function applyChanges(type: RecordType, record: Record<string, unknown>, changes: CrmChanges): (keyof CrmChanges)[] {
  if (type === 'booking' && changes.status !== undefined) {
    // Only no_show, and not from a cancelled or completed booking (rules crm-booking-no-show-only,
    // crm-booking-cancel-complete-refused): those moves are queued for the reviewed rail.
    if (changes.status !== 'no_show') {
      // §3: cancelled, completed, restoring and rescheduling are not done by this tool; they are queued for the reviewed rail.
      throw new DomainError('not_available', `A booking cannot be set to ${changes.status} over MCP: cancelling, completing or rescheduling goes through the reviewed rail in the app, where the owner confirms it. crm_update can only mark a booking no_show.`, { use: 'the app' });
    }
    if (record.status === 'cancelled' || record.status === 'completed') {
      throw new DomainError('not_available', `This booking is ${String(record.status)}; it cannot be changed by crm_update.`);
    }
  }
  if (changes.followUpAt !== undefined && type !== 'lead') throw new DomainError('validation_failed', 'followUpAt exists on leads only.');
  const changed: (keyof CrmChanges)[] = [];
  for (const field of ['status', 'handled', 'note', 'followUpAt'] as const) {
    if (changes[field] === undefined) continue;
    record[field] = changes[field];
    changed.push(field);
  }
  return changed;
}

const crm_update = defineTool('crm_update', async ({ args, ws, write, note }) => {
  const { recordType, recordId, changes } = args;
  // The tool's gate is the crm area; a booking also needs the bookings area (rule authz-agency-area-off).
  if (recordType === 'booking') checkWorkspaceGates(ws, { gates: ['area:bookings'] }, 'crm_update');
  try {
    const changedFields = await write((_ws, site) => {
      // Looks in the target site only: another site's id answers exactly like a missing one (rule crm-update-cross-site-not-found).
      const record = site.records[COLLECTION[recordType]].find((r) => r[ID_FIELD[recordType]] === recordId);
      if (!record) throw recordNotFound(recordType, recordId);
      return applyChanges(recordType, record, changes);
    });
    // Record type and field names only (rule activity-crm-summary-field-names).
    note(`${recordType} updated: ${changedFields.join(', ')}`);
    return { recordType, recordId, changedFields };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') note(`${recordType} lookup missed`);
    throw error;
  }
});

export const crmHandlers = { list_leads, list_bookings, list_contacts, crm_update };
