// The authorization steps of the call path one by one (§5.6, §5.7; reference/domain/authorize.ts): which error
// each denial is and the details a program acts on (spec/schemas/error.schema.json: requiredScopes,
// grantedScopes, cause, tool, use). The features check the same denials black-box, by kind and order; these
// pin the reference's own details, which the kit may not compare.
import { describe, expect, it } from 'vitest';
import { checkRole, checkScopes, checkWorkspaceGates, resolveTarget } from '../domain/authorize.js';
import { refusal as denial } from './domain-refusal.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';

const site = (websiteId: string, members: Record<string, string>) => ({ websiteId, members }) as unknown as Site;
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
