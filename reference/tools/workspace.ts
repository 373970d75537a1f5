// workspace:write: create_site (§4.3). One empty, unpublished draft carrying the business name only, in the
// connection's own workspace. The plan's site limit is checked at the gate and again inside the commit
// transaction, so two concurrent calls cannot both take the last slot (rule create-site-limit-twice).
import { checkCreatorOwnsWorkspace } from '../domain/authorize.js';
import { editorUrl, newSite, recordChange } from '../domain/site.js';
import { checkSiteLimit } from '../domain/workspace.js';
import { defineTool } from './types.js';

const create_site = defineTool('create_site', async ({ store, limits, baseUrl, ws, connection, args, note, now }) => {
  checkCreatorOwnsWorkspace(ws, connection);
  checkSiteLimit(limits, ws);
  const site = await store.transact(ws.id, (fresh, tx) => {
    checkSiteLimit(limits, fresh);
    const created = newSite({ name: args.businessName, businessName: args.businessName, members: { [connection.createdBy]: 'owner' }, now });
    recordChange(created, now, 'site-created', 'Empty site created');
    fresh.sites[created.websiteId] = created;
    tx.index('site', created.websiteId); // committed with the site (rule store-lookups-with-document)
    return created;
  });
  note('site created');
  return { websiteId: site.websiteId, editorUrl: editorUrl(baseUrl, site.websiteId), status: 'unpublished' };
});

export const workspaceHandlers = { create_site };
