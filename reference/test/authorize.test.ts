// The authorization steps of the call path one by one (§5.6, §5.7; reference/domain/authorize.ts): which error
// each denial is and the details a program acts on (spec/schemas/error.schema.json: requiredScopes,
// grantedScopes, cause, tool, use). The features check the same denials black-box, by kind and order; these
// pin the reference's own details, which the kit may not compare. The later blocks are the other decisions of
// authorize.ts (revoke, new sites, merge target, plan decider, approval anchor, owner and app-editor checks, list_sites),
// each allowed case and each refusal with the words a person reads.
import { describe, expect, it } from 'vitest';
import {
  authorizeRevoke,
  checkAppEditor,
  checkApprovalAnchor,
  checkCreatorOwnsWorkspace,
  checkMergeTarget,
  checkOwnerOf,
  checkPlanDecider,
  checkRole,
  checkScopes,
  checkWorkspaceGates,
  mayDecidePlan,
  resolveTarget,
  visibleSites,
} from '../domain/authorize.js';
import { websiteNotFound } from '../domain/errors.js';
import { refusal as denial } from './domain-refusal.js';
import type { Connection, Plan, Site, WorkspaceDoc } from '../domain/model.js';

const site = (websiteId: string, members: Record<string, string>, createdAt = '2026-01-01T00:00:00.000Z') => ({ websiteId, members, createdAt }) as unknown as Site;
const workspace = (sites: Site[], extra: Partial<WorkspaceDoc> = {}) =>
  ({ sites: Object.fromEntries(sites.map((s) => [s.websiteId, s])), areasOff: [], advancedEditorGrant: false, ...extra }) as unknown as WorkspaceDoc;
const connection = (extra: Partial<Connection>) => ({ createdBy: 'usr_a', reach: 'website', websiteId: 'site_1', scopes: ['site:read'], ...extra }) as Connection;


describe('checkScopes rule:scope-ceiling', () => {
  it('names every missing scope in the message and details the required and granted scopes', () => {
    const c = connection({ scopes: ['site:read'] });
    const error = denial(() => checkScopes(c, { scopes: ['site:read', 'content:write', 'crm:read'] }, 'some_tool'));
    expect(error.code).toBe('scope_denied');
    expect(error.message).toContain('content:write, crm:read');
    expect(error.message).toContain('some_tool');
    expect(error.details).toEqual({ requiredScopes: ['site:read', 'content:write', 'crm:read'], grantedScopes: ['site:read'], tool: 'some_tool' });
  });

  it('an implied scope satisfies the requirement (domain:write ⊇ domain:read)', () => {
    expect(() => checkScopes(connection({ scopes: ['domain:write'] }), { scopes: ['domain:read'] }, 't')).not.toThrow();
    expect(denial(() => checkScopes(connection({ scopes: ['domain:read'] }), { scopes: ['domain:write'] }, 't')).code).toBe('scope_denied');
  });
});

describe('resolveTarget rule:authz-cross-tenant-not-found', () => {
  const ws = workspace([site('site_1', { usr_a: 'owner' }), site('site_2', { usr_a: 'owner' })]);

  it('website reach: its pinned site, with or without the id; another id answers like a missing one', () => {
    const c = connection({ reach: 'website', websiteId: 'site_1' });
    expect(resolveTarget(ws, c, undefined).websiteId).toBe('site_1');
    expect(resolveTarget(ws, c, 'site_1').websiteId).toBe('site_1');
    const other = denial(() => resolveTarget(ws, c, 'site_2'));
    const missing = denial(() => resolveTarget(ws, c, 'site_9'));
    expect(other.code).toBe('not_found');
    expect(other.message).toBe(missing.message.replace('site_9', 'site_2'));
  });

  it('website reach whose pinned site is gone answers not found for that site', () => {
    const c = connection({ reach: 'website', websiteId: 'site_gone' });
    const error = denial(() => resolveTarget(ws, c, undefined));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('"site_gone"');
    const unpinned = denial(() => resolveTarget(ws, connection({ reach: 'website', websiteId: null }), undefined));
    expect(unpinned.code).toBe('not_found');
    expect(unpinned.message).toContain('""');
  });

  it('workspace reach: any site of the workspace by id; no id is website_required pointing at list_sites', () => {
    const c = connection({ reach: 'workspace', websiteId: null });
    expect(resolveTarget(ws, c, 'site_2').websiteId).toBe('site_2');
    expect(denial(() => resolveTarget(ws, c, 'site_9')).code).toBe('not_found');
    // An inherited name is no site (entryOf: own entries only).
    expect(denial(() => resolveTarget(ws, c, 'toString')).code).toBe('not_found');
    const error = denial(() => resolveTarget(ws, c, undefined));
    expect(error.code).toBe('website_required');
    expect(error.details).toEqual({ use: 'list_sites' });
  });
});

describe('checkRole rule:connection-live-role-recheck rule:authz-denial-order', () => {
  const gate = (minRole: 'viewer' | 'editor' | 'owner', gates: string[] = []) => ({ minRole, gates });
  const c = connection({ createdBy: 'usr_a' });

  it('the creator removed from the site: access_denied with cause creator-access-removed', () => {
    const error = denial(() => checkRole(workspace([]), c, site('site_1', { usr_b: 'owner' }), gate('viewer'), 'get_site'));
    expect(error.code).toBe('access_denied');
    expect(error.details).toEqual({ cause: 'creator-access-removed', tool: 'get_site' });
  });

  it('an owner-only tool for a creator who is no longer owner: owner_only naming the role', () => {
    const error = denial(() => checkRole(workspace([]), c, site('site_1', { usr_a: 'editor' }), gate('owner', ['owner-only']), 'set_primary_domain'));
    expect(error.code).toBe('owner_only');
    expect(error.message).toContain('set_primary_domain');
    expect(error.details).toEqual({ cause: 'creator-role-editor', tool: 'set_primary_domain' });
  });

  it('a role below the least one: access_denied naming the role; at or above it the role is returned', () => {
    const error = denial(() => checkRole(workspace([]), c, site('site_1', { usr_a: 'viewer' }), gate('editor'), 'update_section_text'));
    expect(error.code).toBe('access_denied');
    expect(error.message).toContain('viewer');
    expect(error.details).toEqual({ cause: 'creator-role-viewer', tool: 'update_section_text' });
    expect(checkRole(workspace([]), c, site('site_1', { usr_a: 'editor' }), gate('editor'), 't')).toBe('editor');
    expect(checkRole(workspace([]), c, site('site_1', { usr_a: 'owner' }), gate('editor'), 't')).toBe('owner');
    expect(checkRole(workspace([]), c, site('site_1', { usr_a: 'owner' }), gate('owner', ['owner-only']), 't')).toBe('owner');
  });
});

describe('checkWorkspaceGates rule:authz-denial-order', () => {
  it('the advanced-editor grant: advanced_grant_missing naming the tool, nothing when granted', () => {
    const error = denial(() => checkWorkspaceGates(workspace([]), { gates: ['advanced-editor-grant'] }, 'replace_section'));
    expect(error.code).toBe('advanced_grant_missing');
    expect(error.details).toEqual({ tool: 'replace_section' });
    expect(() => checkWorkspaceGates(workspace([], { advancedEditorGrant: true }), { gates: ['advanced-editor-grant'] }, 't')).not.toThrow();
  });

  it('an area switched off: area_disabled with cause area-<name>-off; other areas and other gates pass', () => {
    const ws = workspace([], { areasOff: ['crm'] });
    const error = denial(() => checkWorkspaceGates(ws, { gates: ['area:crm'] }, 'list_leads'));
    expect(error.code).toBe('area_disabled');
    expect(error.message).toContain('crm');
    expect(error.details).toEqual({ cause: 'area-crm-off', tool: 'list_leads' });
    expect(() => checkWorkspaceGates(ws, { gates: ['area:commerce'] }, 't')).not.toThrow();
    expect(() => checkWorkspaceGates(ws, { gates: ['owner-only'] }, 't')).not.toThrow();
  });
});

/** The not-found answer of a website, as every other missing or foreign site gets it (rule authz-cross-tenant-not-found). */
const noWebsite = (websiteId: string) => websiteNotFound(websiteId).toJSON();
const withConnections = (ws: WorkspaceDoc, connections: Connection[]) => {
  ws.connections = Object.fromEntries(connections.map((c) => [c.connectionId, c]));
  return ws;
};

describe('authorizeRevoke rule:connections-managed-in-developers-settings rule:authz-cross-tenant-not-found', () => {
  const pinned = connection({ connectionId: 'conn_pinned', createdBy: 'usr_e', reach: 'website', websiteId: 'site_1' });
  const madeHere = connection({ connectionId: 'conn_here', createdBy: 'usr_e', reach: 'workspace', websiteId: 'site_1' });
  const ownElsewhere = connection({ connectionId: 'conn_own', createdBy: 'usr_o', reach: 'website', websiteId: 'site_2' });
  const foreign = connection({ connectionId: 'conn_foreign', createdBy: 'usr_s', reach: 'website', websiteId: 'site_2' });
  const unanchored = connection({ connectionId: 'conn_none', createdBy: 'usr_s', reach: 'workspace', websiteId: null });
  const ws = withConnections(
    workspace([
      site('site_1', { usr_o: 'owner', usr_e: 'editor', usr_v: 'viewer' }),
      site('site_2', { usr_o: 'owner', usr_s: 'owner', usr_e: 'editor' }),
    ]),
    [pinned, madeHere, ownElsewhere, foreign, unanchored],
  );

  it('an owner revokes the website\'s own connections (pinned to it or made from its page) and their own of another website', () => {
    expect(authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_pinned')).toBe(pinned);
    expect(authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_here')).toBe(madeHere);
    expect(authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_own')).toBe(ownElsewhere);
  });

  it('a website that is missing, or that the person is not a member of, answers like a missing website', () => {
    expect(denial(() => authorizeRevoke(ws, 'usr_o', 'site_9', 'conn_pinned'))).toEqual(noWebsite('site_9'));
    expect(denial(() => authorizeRevoke(ws, 'usr_s', 'site_1', 'conn_pinned'))).toEqual(noWebsite('site_1'));
    expect(denial(() => authorizeRevoke(ws, 'usr_o', undefined, 'conn_pinned'))).toEqual(noWebsite(''));
  });

  it('an editor or viewer of the website is refused as owner-only', () => {
    for (const user of ['usr_e', 'usr_v']) {
      const error = denial(() => authorizeRevoke(ws, user, 'site_1', 'conn_pinned'));
      expect(error.code).toBe('owner_only');
      expect(error.message).toBe('Only an owner of this website can revoke its connections.');
    }
  });

  it('another website\'s connection by someone else answers exactly like a missing connection', () => {
    const missing = denial(() => authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_9'));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toBe('No connection "conn_9" belongs to this website.');
    expect(denial(() => authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_foreign'))).toEqual({ ...missing, message: 'No connection "conn_foreign" belongs to this website.' });
    expect(denial(() => authorizeRevoke(ws, 'usr_o', 'site_1', 'conn_none')).message).toBe('No connection "conn_none" belongs to this website.');
    expect(denial(() => authorizeRevoke(ws, 'usr_o', 'site_1', null)).message).toBe('No connection "" belongs to this website.');
    // The owner of the connection's own website may revoke it there.
    expect(authorizeRevoke(ws, 'usr_s', 'site_2', 'conn_foreign')).toBe(foreign);
  });
});

describe('checkCreatorOwnsWorkspace rule:connection-live-role-recheck', () => {
  const sites = [site('site_1', { usr_a: 'editor', usr_b: 'owner' }), site('site_2', { usr_a: 'owner', usr_b: 'viewer' })];

  it('the company owner, or the owner of any one of its websites, may add a site', () => {
    expect(() => checkCreatorOwnsWorkspace(workspace([], { ownerUserId: 'usr_a' }), connection({ createdBy: 'usr_a' }))).not.toThrow();
    // Owner of site_2 only (editor of site_1): one owned site is enough.
    expect(() => checkCreatorOwnsWorkspace(workspace(sites, { ownerUserId: 'usr_z' }), connection({ createdBy: 'usr_a' }))).not.toThrow();
    expect(() => checkCreatorOwnsWorkspace(workspace(sites, { ownerUserId: 'usr_z' }), connection({ createdBy: 'usr_b' }))).not.toThrow();
  });

  it('a creator who owns nothing in the workspace any more: access_denied, cause creator-access-removed', () => {
    const ws = workspace([site('site_1', { usr_a: 'editor' }), site('site_2', { usr_a: 'viewer' })], { ownerUserId: 'usr_z' });
    const error = denial(() => checkCreatorOwnsWorkspace(ws, connection({ createdBy: 'usr_a' })));
    expect(error).toEqual({
      code: 'access_denied', retryable: false,
      message: 'The person who created this connection no longer owns anything in this workspace.',
      details: { cause: 'creator-access-removed' },
    });
    expect(denial(() => checkCreatorOwnsWorkspace(workspace([], { ownerUserId: 'usr_z' }), connection({ createdBy: 'usr_a' }))).code).toBe('access_denied');
  });
});

describe('checkMergeTarget rule:import-merge-needs-edit-access rule:authz-cross-tenant-not-found', () => {
  const ws = workspace([site('site_1', { usr_a: 'editor', usr_o: 'owner' }), site('site_2', { usr_a: 'editor', usr_v: 'viewer' })]);

  it('an editor or owner of the target merges into it, within the connection\'s reach', () => {
    expect(checkMergeTarget(ws, connection({ createdBy: 'usr_a', reach: 'website', websiteId: 'site_1' }), 'site_1').websiteId).toBe('site_1');
    expect(checkMergeTarget(ws, connection({ createdBy: 'usr_o', reach: 'website', websiteId: 'site_1' }), 'site_1').websiteId).toBe('site_1');
    expect(checkMergeTarget(ws, connection({ createdBy: 'usr_a', reach: 'workspace', websiteId: null }), 'site_2').websiteId).toBe('site_2');
  });

  it('a site outside a website-reach connection answers like a missing one, even where its creator could edit', () => {
    expect(denial(() => checkMergeTarget(ws, connection({ createdBy: 'usr_a', reach: 'website', websiteId: 'site_1' }), 'site_2'))).toEqual(noWebsite('site_2'));
    expect(denial(() => checkMergeTarget(ws, connection({ createdBy: 'usr_a', reach: 'workspace', websiteId: null }), 'site_9'))).toEqual(noWebsite('site_9'));
  });

  it('a viewer, or a creator no longer a member: access_denied naming the cause', () => {
    const message = 'Merging needs edit access to the target website, which the connection\'s creator does not have.';
    const viewer = denial(() => checkMergeTarget(ws, connection({ createdBy: 'usr_v', reach: 'workspace', websiteId: null }), 'site_2'));
    expect(viewer).toEqual({ code: 'access_denied', retryable: false, message, details: { cause: 'creator-role-viewer' } });
    const gone = denial(() => checkMergeTarget(ws, connection({ createdBy: 'usr_o', reach: 'workspace', websiteId: null }), 'site_2'));
    expect(gone).toEqual({ code: 'access_denied', retryable: false, message, details: { cause: 'creator-access-removed' } });
  });
});

describe('mayDecidePlan and checkPlanDecider rule:plan-approver-owner-and-creator rule:plan-approval-signed-in-owner', () => {
  const ws = withConnections(
    workspace([site('site_1', { usr_o: 'owner', usr_p: 'owner', usr_e: 'editor' })]),
    [connection({ connectionId: 'conn_o', createdBy: 'usr_o' }), connection({ connectionId: 'conn_e', createdBy: 'usr_e' })],
  );
  const plan = (connectionId: string, websiteId = 'site_1') => ({ planId: 'plan_1', connectionId, websiteId }) as Plan;

  it('only an owner of the plan\'s website who also created its connection decides', () => {
    expect(mayDecidePlan(ws, plan('conn_o'), 'usr_o')).toBe(true);
    expect(() => checkPlanDecider(ws, plan('conn_o'), 'usr_o')).not.toThrow();
    expect(mayDecidePlan(ws, plan('conn_o'), 'usr_p')).toBe(false); // an owner, not the creator
    expect(mayDecidePlan(ws, plan('conn_e'), 'usr_e')).toBe(false); // the creator, an editor
    expect(mayDecidePlan(ws, plan('conn_gone'), 'usr_o')).toBe(false);
    expect(mayDecidePlan(ws, plan('conn_o', 'site_gone'), 'usr_o')).toBe(false);
  });

  it('anyone else is refused as owner-only, in words the person on the plan page reads', () => {
    for (const [p, user] of [[plan('conn_o'), 'usr_p'], [plan('conn_e'), 'usr_e'], [plan('conn_o', 'site_gone'), 'usr_o']] as const) {
      expect(denial(() => checkPlanDecider(ws, p, user))).toEqual({
        code: 'owner_only', retryable: false,
        message: 'Only the owner of this website who created the connection can decide on this plan.',
      });
    }
  });
});

describe('checkApprovalAnchor rule:plan-company-anchor-context-only rule:authz-cross-tenant-not-found', () => {
  const ws = workspace([site('site_1', { usr_a: 'owner', usr_e: 'editor' }), site('site_2', { usr_a: 'owner', usr_e: 'editor' })]);
  const pinned = connection({ createdBy: 'usr_a', reach: 'website', websiteId: 'site_1' });
  const wide = (websiteId: string | null) => connection({ createdBy: 'usr_a', reach: 'workspace', websiteId });

  it('website reach: the pinned site, named or not; another site answers like a missing one', () => {
    expect(checkApprovalAnchor(ws, pinned, undefined).websiteId).toBe('site_1');
    expect(checkApprovalAnchor(ws, pinned, 'site_1').websiteId).toBe('site_1');
    expect(denial(() => checkApprovalAnchor(ws, pinned, 'site_2'))).toEqual(noWebsite('site_2'));
    expect(denial(() => checkApprovalAnchor(ws, connection({ createdBy: 'usr_a', reach: 'website', websiteId: 'site_gone' }), undefined))).toEqual(noWebsite('site_gone'));
  });

  it('workspace reach: the site named, else the one the connection was made from; a missing one is not found', () => {
    expect(checkApprovalAnchor(ws, wide('site_1'), 'site_2').websiteId).toBe('site_2');
    expect(checkApprovalAnchor(ws, wide('site_1'), undefined).websiteId).toBe('site_1');
    expect(checkApprovalAnchor(ws, wide(null), 'site_2').websiteId).toBe('site_2');
    expect(denial(() => checkApprovalAnchor(ws, wide(null), 'site_9'))).toEqual(noWebsite('site_9'));
  });

  it('workspace reach naming no site and made from none: website_required pointing at list_sites', () => {
    expect(denial(() => checkApprovalAnchor(ws, wide(null), undefined))).toEqual({
      code: 'website_required', retryable: false,
      message: 'Company creation is approved on one of your websites: pass websiteId (from list_sites).',
    });
  });

  it('a creator who is not an owner of the anchor: owner_only', () => {
    const error = denial(() => checkApprovalAnchor(ws, connection({ createdBy: 'usr_e', reach: 'website', websiteId: 'site_1' }), undefined));
    expect(error).toEqual({ code: 'owner_only', retryable: false, message: 'Only an owner of the anchor website who created this connection can have a company created.' });
  });
});

describe('checkOwnerOf rule:connection-created-by-site-owner-only rule:pairing-approval-owner-only rule:pairing-company-wide-only-without-website', () => {
  const wording = { companyWide: 'company-wide refused', noSite: (id: string) => `no site ${id}`, notOwner: 'not an owner' };
  const ws = workspace([site('site_1', { usr_o: 'owner', usr_e: 'editor', usr_v: 'viewer' })], { ownerUserId: 'usr_c' });

  it('the whole company: the company owner only', () => {
    expect(() => checkOwnerOf(ws, 'usr_c', null, wording)).not.toThrow();
    expect(denial(() => checkOwnerOf(ws, 'usr_o', null, wording))).toEqual({ code: 'owner_only', retryable: false, message: 'company-wide refused' });
  });

  it('one website: an owner of it (not the company owner as such); an editor or viewer is refused', () => {
    expect(() => checkOwnerOf(ws, 'usr_o', 'site_1', wording)).not.toThrow();
    for (const user of ['usr_e', 'usr_v', 'usr_c']) {
      expect(denial(() => checkOwnerOf(ws, user, 'site_1', wording))).toEqual({ code: 'owner_only', retryable: false, message: 'not an owner' });
    }
  });

  it('a website that is not there: not_found in the caller\'s words, naming it', () => {
    expect(denial(() => checkOwnerOf(ws, 'usr_o', 'site_9', wording))).toEqual({ code: 'not_found', retryable: false, message: 'no site site_9' });
  });
});

describe('checkAppEditor rule:service-same-functions-as-app', () => {
  const ws = workspace([site('site_1', { usr_o: 'owner', usr_e: 'editor', usr_v: 'viewer' })]);

  it('an owner or editor edits the site in the app', () => {
    expect(checkAppEditor(ws, 'usr_o', 'site_1').websiteId).toBe('site_1');
    expect(checkAppEditor(ws, 'usr_e', 'site_1').websiteId).toBe('site_1');
  });

  it('a viewer or a non-member is refused; a missing site is not found', () => {
    for (const user of ['usr_v', 'usr_x']) {
      expect(denial(() => checkAppEditor(ws, user, 'site_1'))).toEqual({ code: 'access_denied', retryable: false, message: 'Only an owner or editor of this website can edit it.' });
    }
    expect(denial(() => checkAppEditor(ws, 'usr_o', 'site_9'))).toEqual({ code: 'not_found', retryable: false, message: 'No website "site_9".' });
  });
});

describe('visibleSites rule:list-sites-reach rule:connection-live-role-recheck', () => {
  // Stored out of order: the answer is oldest first, ties by id (the reference's stable order).
  const ws = workspace([
    site('site_c', { usr_a: 'viewer' }, '2026-02-01T00:00:00.000Z'),
    site('site_b', { usr_a: 'editor' }, '2026-03-01T00:00:00.000Z'),
    site('site_x', { usr_z: 'owner' }, '2026-01-15T00:00:00.000Z'),
    site('site_a', { usr_a: 'owner' }, '2026-02-01T00:00:00.000Z'),
    site('site_d', { usr_a: 'owner' }, '2026-01-01T00:00:00.000Z'),
  ]);
  const ids = (list: { site: Site; role: string }[]) => list.map(({ site: s, role }) => `${s.websiteId}:${role}`);

  it('workspace reach: every site its creator is a member of, with the live role, oldest first and by id', () => {
    expect(ids(visibleSites(ws, connection({ reach: 'workspace', websiteId: null })))).toEqual(['site_d:owner', 'site_a:owner', 'site_c:viewer', 'site_b:editor']);
  });

  it('website reach: the pinned site only; none when it is gone or its creator lost access', () => {
    expect(ids(visibleSites(ws, connection({ reach: 'website', websiteId: 'site_b' })))).toEqual(['site_b:editor']);
    expect(visibleSites(ws, connection({ reach: 'website', websiteId: 'site_gone' }))).toEqual([]);
    expect(visibleSites(ws, connection({ reach: 'website', websiteId: 'site_x' }))).toEqual([]);
  });
});
