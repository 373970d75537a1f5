// workspace:write: create_site (§4.3). One empty, unpublished draft carrying the business name only, in the
// connection's own workspace. The plan's site limit is checked at the gate and again inside the commit
// transaction, so two concurrent calls cannot both take the last slot (rule create-site-limit-twice).
import { ToolError } from '../domain/errors.js';
import type { Site, WorkspaceDoc } from '../domain/model.js';
import { newId } from '../domain/ids.js';
import { newSite, recordChange } from '../domain/site.js';
import { editorUrl } from './site-read.js';
import { defineTool } from './types.js';
import { isBroken } from '../domain/breaks.js';
import type { Runtime } from '../runtime.js';

export function checkSiteLimit(rt: Runtime, ws: WorkspaceDoc, adding = 1): void {
  const limit = rt.limits.siteLimitByPlan[ws.plan] ?? 0;
  const count = Object.keys(ws.sites).length;
  if (count + adding > limit) {
    throw new ToolError('site_limit_reached', `The ${ws.plan} plan allows ${limit} website${limit === 1 ? '' : 's'} and this workspace has ${count}. The owner can change plans in the app.`, { limit });
  }
}

/** The creator must still be the company owner or own a site of it (live role, rule connection-live-role-recheck). */
export function checkWorkspaceOwner(ws: WorkspaceDoc, userId: string): void {
  const ownsSite = Object.values(ws.sites).some((s) => s.members[userId] === 'owner');
  if (ws.ownerUserId !== userId && !ownsSite) {
    throw new ToolError('access_denied', 'The person who created this connection no longer owns anything in this workspace.', { cause: 'creator-access-removed' });
  }
}

/**
 * Only for the server broken for create-site-empty-draft: a "starter" site with invented services, prices,
 * opening hours and testimonials, which the source forbids (the new site carries the business name only).
 */
function inventContent(site: Site, now: Date): void {
  site.records.services.push({ serviceId: newId('service'), websiteId: site.websiteId, name: 'Consultation', description: 'From 49 EUR per hour', status: 'draft', createdAt: now.toISOString() });
  site.draft.pages.push({
    pageId: newId('page'), key: 'home', slug: 'home', title: 'Home', kind: 'page', hidden: false, seo: { title: site.businessName, description: '' },
    sections: [
      { sectionId: newId('sec'), key: 'hero', type: 'hero', content: { heading: site.businessName }, layout: {}, rev: 0, hidden: false },
      { sectionId: newId('sec'), key: 'hours', type: 'text', content: { heading: 'Opening hours', body: 'Mon-Fri 9:00-17:00' }, layout: {}, rev: 0, hidden: false },
      { sectionId: newId('sec'), key: 'testimonials', type: 'text', content: { heading: 'What our customers say', body: 'Wonderful service!' }, layout: {}, rev: 0, hidden: false },
    ],
  });
}

const create_site = defineTool('create_site', async ({ rt, ws, connection, args, note, now }) => {
  checkWorkspaceOwner(ws, connection.createdBy);
  checkSiteLimit(rt, ws);
  const site = await rt.store.transact(ws.id, (fresh, tx) => {
    if (!isBroken('create-site-limit-twice')) checkSiteLimit(rt, fresh);
    const created = newSite({ name: args.businessName, businessName: args.businessName, members: { [connection.createdBy]: 'owner' }, now });
    if (isBroken('create-site-empty-draft')) inventContent(created, now);
    recordChange(created, now, 'site-created', 'Empty site created');
    fresh.sites[created.websiteId] = created;
    tx.index('site', created.websiteId); // committed with the site (rule store-lookups-with-document)
    return created;
  });
  note('site created');
  return { websiteId: site.websiteId, editorUrl: editorUrl(rt, site.websiteId), status: 'unpublished' };
});

export const workspaceHandlers = { create_site };
