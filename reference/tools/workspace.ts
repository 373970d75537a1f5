// workspace:write: create_site (§4.3). One empty, unpublished draft carrying the business name only, in the
// connection's own workspace. The plan's site limit is checked at the gate and again inside the commit
// transaction, so two concurrent calls cannot both take the last slot (rule create-site-limit-twice).
import { DomainError } from '../domain/errors.js';
import type { WorkspaceDoc } from '../domain/model.js';
import { newSite, recordChange } from '../domain/site.js';
import { editorUrl } from './site-read.js';
import { defineTool } from './types.js';
import type { Runtime } from '../runtime.js';

export function checkSiteLimit(rt: Runtime, ws: WorkspaceDoc, adding = 1): void {
  const limit = rt.limits.siteLimitByPlan[ws.plan] ?? 0;
  const count = Object.keys(ws.sites).length;
  if (count + adding > limit) {
    throw new DomainError('site_limit_reached', `The ${ws.plan} plan allows ${limit} website${limit === 1 ? '' : 's'} and this workspace has ${count}. The owner can change plans in the app.`, { limit });
  }
}

/** The creator must still be the company owner or own a site of it (live role, rule connection-live-role-recheck). */
export function checkWorkspaceOwner(ws: WorkspaceDoc, userId: string): void {
  const ownsSite = Object.values(ws.sites).some((s) => s.members[userId] === 'owner');
  if (ws.ownerUserId !== userId && !ownsSite) {
    throw new DomainError('access_denied', 'The person who created this connection no longer owns anything in this workspace.', { cause: 'creator-access-removed' });
  }
}

const create_site = defineTool('create_site', async ({ rt, ws, connection, args, note, now }) => {
  checkWorkspaceOwner(ws, connection.createdBy);
  checkSiteLimit(rt, ws);
  const site = await rt.store.transact(ws.id, (fresh, tx) => {
    checkSiteLimit(rt, fresh);
    const created = newSite({ name: args.businessName, businessName: args.businessName, members: { [connection.createdBy]: 'owner' }, now });
    recordChange(created, now, 'site-created', 'Empty site created');
    fresh.sites[created.websiteId] = created;
    tx.index('site', created.websiteId); // committed with the site (rule store-lookups-with-document)
    return created;
  });
  note('site created');
  return { websiteId: site.websiteId, editorUrl: editorUrl(rt, site.websiteId), status: 'unpublished' };
});

export const workspaceHandlers = { create_site };
