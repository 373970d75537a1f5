// settings:write (update_business_name), access:write (list_access) and communications:write
// (list_sendable_documents). The prepare_* tools of these scopes live with the reviewed rail in reviewed.ts.
import { recordChange } from '../domain/site.js';
import { defineTool } from './types.js';

const update_business_name = defineTool('update_business_name', async ({ args, write, note, now }) => {
  const result = await write((_ws, site) => {
    site.businessName = args.businessName;
    site.contact.businessName = args.businessName;
    return { websiteId: site.websiteId, businessName: site.businessName, siteRevision: recordChange(site, now, 'business-name', 'Business name changed') };
  });
  note('business name updated');
  return result;
});

/** Members and pending invitations of the target site; never an invitation secret or link (rule grant-access-no-link). */
const list_access = defineTool('list_access', ({ ws, site }) => ({
  members: Object.entries(site.members).map(([userId, role]) => ({ userId, name: ws.users[userId]?.name ?? userId, role })),
  invitations: site.invitations.map(({ invitationId, email, level, status, createdAt }) => ({ invitationId, email, level, status, createdAt })),
}));

/** Never-sent draft invoices and quotes, without customer contact details (rules sendable-documents-*). */
const list_sendable_documents = defineTool('list_sendable_documents', ({ site }) => ({
  documents: site.records.documents.flatMap((d) =>
    (d.kind === 'invoice' || d.kind === 'quote') && d.status === 'draft' && !d.sentAt
      ? [
          {
            documentId: String(d.documentId),
            kind: d.kind,
            number: String(d.number ?? ''),
            title: String(d.title ?? ''),
            // cast: a stored total is passed as stored; the output check refuses a stored value outside the schema before commit (rule tool-output-schema).
            total: (d.total as { amount: number; currency: string }) ?? { amount: 0, currency: 'EUR' },
            createdAt: String(d.createdAt),
          },
        ]
      : [],
  ),
}));

export const settingsAccessCommsHandlers = { update_business_name, list_access, list_sendable_documents };
