// Authorization on every call (§5.6, §5.7), in one place. The order of the checks is the documented order
// of denial causes: the scope is off; the creator's own access changed; the area was switched off. Target
// resolution sits between the scope check and the role check because the role is read on the target site.
import type { Connection, Site, WorkspaceDoc } from './model.js';
import { ROLE_RANK, type Role } from './vocabulary.js';
import { satisfies } from './scopes.js';
import { DomainError, websiteNotFound } from './errors.js';
import { entryOf } from './model.js';

export interface Gate {
  /** Scopes the operation needs, all of them (spec/tools/<name>.json "scopes"). */
  scopes: readonly string[];
  /** Extra gates (spec/tools/<name>.json "gates"): owner-only, advanced-editor-grant, area:<name>. */
  gates: readonly string[];
  /** The least role the creator must hold on the target site. */
  minRole: Role;
  /** Whether the operation works on one website (takes websiteId). */
  targetsSite: boolean;
}

export function checkScopes(connection: Connection, gate: Pick<Gate, 'scopes'>, tool: string): void {
  const missing = gate.scopes.filter((s) => !satisfies(connection.scopes, s));
  if (missing.length > 0) {
    throw new DomainError('scope_denied', `This connection lacks the scope ${missing.join(', ')} that ${tool} needs. The owner can create a connection with it in Developers settings.`, {
      requiredScopes: [...gate.scopes],
      grantedScopes: connection.scopes,
      tool,
    });
  }
}

/**
 * Resolves the website a call targets (§4.2): website reach pins one site and another id answers exactly
 * like a missing one; workspace reach needs an explicit websiteId.
 */
export function resolveTarget(ws: WorkspaceDoc, connection: Connection, websiteId: string | undefined): Site {
  if (connection.reach === 'website') {
    const pinned = connection.websiteId;
    if (websiteId !== undefined && websiteId !== pinned) throw websiteNotFound(websiteId);
    const site = pinned ? entryOf(ws.sites, pinned) : undefined;
    if (!site) throw websiteNotFound(pinned ?? '');
    return site;
  }
  if (websiteId === undefined) {
    throw new DomainError('website_required', 'This connection reaches the whole workspace: pass websiteId (from list_sites).', { use: 'list_sites' });
  }
  const site = entryOf(ws.sites, websiteId);
  if (!site) throw websiteNotFound(websiteId);
  return site;
}

/** The creator's live role on the site, re-read on every call (rule connection-live-role-recheck). */
export function checkRole(ws: WorkspaceDoc, connection: Connection, site: Site, gate: Pick<Gate, 'minRole' | 'gates'>, tool: string): Role {
  const role = site.members[connection.createdBy];
  if (!role) {
    throw new DomainError('access_denied', 'The person who created this connection no longer has access to this website, so the connection cannot act on it.', {
      cause: 'creator-access-removed',
      tool,
    });
  }
  if (gate.gates.includes('owner-only') && role !== 'owner') {
    throw new DomainError('owner_only', `${tool} is owner-only, and the person who created this connection is no longer an owner of this website.`, { cause: `creator-role-${role}`, tool });
  }
  if (ROLE_RANK[role] < ROLE_RANK[gate.minRole]) {
    throw new DomainError('access_denied', `The person who created this connection is now a ${role} of this website, which does not allow ${tool}.`, {
      cause: `creator-role-${role}`,
      tool,
    });
  }
  void ws;
  return role;
}

/** Workspace-level gates after the role: the invite-only advanced grant, then agency-disabled areas. */
export function checkWorkspaceGates(ws: WorkspaceDoc, gate: Pick<Gate, 'gates'>, tool: string): void {
  if (gate.gates.includes('advanced-editor-grant') && !ws.advancedEditorGrant) {
    throw new DomainError('advanced_grant_missing', `${tool} needs the advanced-editor grant, which this workspace does not have. Use update_section_text and the other content tools instead.`, { tool });
  }
  for (const g of gate.gates) {
    if (!g.startsWith('area:')) continue;
    const area = g.slice('area:'.length);
    if (ws.areasOff.includes(area)) {
      throw new DomainError('area_disabled', `The ${area} area is switched off for this account by its agency, so ${tool} is unavailable.`, { cause: `area-${area}-off`, tool });
    }
  }
}

/**
 * The connection `userId` may revoke from the Developers settings of `websiteId` (§1.3, §2.1): the person must own
 * that website, and the connection must be that website's own (pinned to it, or made from its page) unless it is
 * the person's own. A connection of another website answers exactly like a missing one, so the owner of one site
 * can neither revoke nor probe the connections of a site they do not own (rule authz-cross-tenant-not-found).
 */
export function authorizeRevoke(ws: WorkspaceDoc, userId: string, websiteId: string | undefined, connectionId: string | null): Connection {
  const site = entryOf(ws.sites, websiteId);
  if (!site || !site.members[userId]) throw websiteNotFound(websiteId ?? '');
  if (site.members[userId] !== 'owner') throw new DomainError('owner_only', 'Only an owner of this website can revoke its connections.');
  const connection = entryOf(ws.connections, connectionId);
  if (!connection || (connection.websiteId !== site.websiteId && connection.createdBy !== userId)) {
    throw new DomainError('not_found', `No connection "${connectionId ?? ''}" belongs to this website.`);
  }
  return connection;
}

/**
 * A new site in the connection's workspace (create_site, a new import): the creator must still be the company owner
 * or own a site of it (live role, rule connection-live-role-recheck).
 */
export function checkCreatorOwnsWorkspace(ws: WorkspaceDoc, connection: Connection): void {
  const userId = connection.createdBy;
  const ownsSite = Object.values(ws.sites).some((s) => s.members[userId] === 'owner');
  if (ws.ownerUserId !== userId && !ownsSite) {
    throw new DomainError('access_denied', 'The person who created this connection no longer owns anything in this workspace.', { cause: 'creator-access-removed' });
  }
}

/**
 * The site an import merges into: in this connection's reach (another answers like a missing one, rule
 * authz-cross-tenant-not-found) and editable by its creator now (rule import-merge-needs-edit-access).
 */
export function checkMergeTarget(ws: WorkspaceDoc, connection: Connection, targetId: string): Site {
  if (connection.reach === 'website' && connection.websiteId !== targetId) throw websiteNotFound(targetId);
  const site = entryOf(ws.sites, targetId);
  if (!site) throw websiteNotFound(targetId);
  const role = site.members[connection.createdBy];
  if (!role || ROLE_RANK[role] < ROLE_RANK.editor) {
    throw new DomainError('access_denied', 'Merging needs edit access to the target website, which the connection\'s creator does not have.', { cause: role ? `creator-role-${role}` : 'creator-access-removed' });
  }
  return site;
}
