// Every authorization decision of the server (§2, §5.6, §5.7), in one place: the call path's steps (scope,
// target, live role, workspace gates), the same checks when a plan is redeemed, the import merge target, app
// edits, revokes, who may decide a plan and who may approve a pairing or create a connection. The order of the
// call checks is the documented order of denial causes: the scope is off; the creator's own access changed; the
// area was switched off. Target resolution sits between the scope check and the role check because the role is
// read on the target site. The facts come from spec/ (tool scopes, gates and target; plan kinds' scope,
// ownerOnly and area); only the wording of a denial depends on who asks (a tool call, or a plan's redemption).
import type { Connection, Plan, Site, WorkspaceDoc } from './model.js';
import { ROLE_RANK, type Role } from './vocabulary.js';
import { satisfies } from './scopes.js';
import { DomainError, websiteNotFound } from './errors.js';
import { entryOf } from './model.js';
import type { ToolDefinition } from '../../spec/index.js';

export interface Gate {
  /** Scopes the operation needs, all of them (spec/tools/<name>.json "scopes"). */
  scopes: readonly string[];
  /** Extra gates (spec/tools/<name>.json "gates"): owner-only, advanced-editor-grant, area:<name>. */
  gates: readonly string[];
  /** The least role the creator must hold on the target site. */
  minRole: Role;
  /** Whether the operation works on one website (spec/tools/<name>.json "target": website). */
  targetsSite: boolean;
}

/**
 * The words of a denial for what is asked: a tool call (a tool's name: the message names the tool and details.tool
 * carries it) or the redemption of a plan (PLAN_REDEMPTION). The decision is the same for both.
 */
export interface Asker {
  tool?: string;
  scopeMissing(missing: string[]): string;
  accessRemoved: string;
  notOwner: string;
  roleTooLow(role: Role): string;
  areaOff(area: string): string;
}

/**
 * A tool's wording of the refusals. A class, not an object of arrow functions: every call asks, and under tsx
 * each new closure is also renamed (keepNames), which adds to every read call's CPU.
 */
class ToolAsker implements Asker {
  constructor(readonly tool: string) {}
  scopeMissing(missing: string[]): string {
    return `This connection lacks the scope ${missing.join(', ')} that ${this.tool} needs. The owner can create a connection with it in Developers settings.`;
  }
  get accessRemoved(): string {
    return 'The person who created this connection no longer has access to this website, so the connection cannot act on it.';
  }
  get notOwner(): string {
    return `${this.tool} is owner-only, and the person who created this connection is no longer an owner of this website.`;
  }
  roleTooLow(role: string): string {
    return `The person who created this connection is now a ${role} of this website, which does not allow ${this.tool}.`;
  }
  areaOff(area: string): string {
    return `The ${area} area is switched off for this account by its agency, so ${this.tool} is unavailable.`;
  }
}

/** confirm_pending_action re-authorizes the plan's own scope, its creator's live role and its area (rule plan-redeem-reauthorizes-anchor). */
export const PLAN_REDEMPTION: Asker = {
  scopeMissing: (missing) => `This connection lacks the scope ${missing.join(', ')} that this plan needs.`,
  accessRemoved: 'The person who created this connection no longer has access to the plan\'s website.',
  notOwner: 'Only an owner can carry out this plan, and the connection\'s creator is no longer an owner.',
  roleTooLow: (role) => `The connection's creator is now a ${role} of this website.`,
  areaOff: (area) => `The ${area} area is switched off for this account by its agency.`,
};

const askerOf = (asker: string | Asker): Asker => (typeof asker === 'string' ? new ToolAsker(asker) : asker);
/** details.tool when a tool asks, nothing when a plan does. */
const toolDetail = (asker: Asker) => (asker.tool === undefined ? {} : { tool: asker.tool });

/**
 * The gate of a plan at redemption: the scopes and gates (owner-only, area) of the prepare_* tool that made it, on
 * the plan's own website, by a creator who is at least an editor there (rule plan-redeem-reauthorizes-anchor).
 */
export function planGate(prepareTool: Pick<ToolDefinition, 'scopes' | 'gates'>): Gate {
  return { scopes: prepareTool.scopes, gates: prepareTool.gates, minRole: 'editor', targetsSite: true };
}

/** Rule scope-ceiling: the connection's scopes bound every call, and every redemption, whoever created it. */
export function checkScopes(connection: Connection, gate: Pick<Gate, 'scopes'>, asking: string | Asker): void {
  const asker = askerOf(asking);
  const missing = gate.scopes.filter((s) => !satisfies(connection.scopes, s));
  if (missing.length > 0) {
    throw new DomainError('scope_denied', asker.scopeMissing(missing), {
      requiredScopes: [...gate.scopes],
      grantedScopes: connection.scopes,
      ...toolDetail(asker),
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

/** The creator's live role on the site, re-read on every call and redemption (rule connection-live-role-recheck). */
export function checkRole(ws: WorkspaceDoc, connection: Connection, site: Site, gate: Pick<Gate, 'minRole' | 'gates'>, asking: string | Asker): Role {
  const asker = askerOf(asking);
  const role = site.members[connection.createdBy];
  if (!role) throw new DomainError('access_denied', asker.accessRemoved, { cause: 'creator-access-removed', ...toolDetail(asker) });
  if (gate.gates.includes('owner-only') && role !== 'owner') throw new DomainError('owner_only', asker.notOwner, { cause: `creator-role-${role}`, ...toolDetail(asker) });
  if (ROLE_RANK[role] < ROLE_RANK[gate.minRole]) throw new DomainError('access_denied', asker.roleTooLow(role), { cause: `creator-role-${role}`, ...toolDetail(asker) });
  void ws;
  return role;
}

/** Workspace-level gates after the role: the invite-only advanced grant, then agency-disabled areas. */
export function checkWorkspaceGates(ws: WorkspaceDoc, gate: Pick<Gate, 'gates'>, asking: string | Asker): void {
  const asker = askerOf(asking);
  if (gate.gates.includes('advanced-editor-grant') && !ws.advancedEditorGrant) {
    throw new DomainError('advanced_grant_missing', `${asker.tool ?? 'This'} needs the advanced-editor grant, which this workspace does not have. Use update_section_text and the other content tools instead.`, toolDetail(asker));
  }
  for (const g of gate.gates) {
    if (!g.startsWith('area:')) continue;
    const area = g.slice('area:'.length);
    if (ws.areasOff.includes(area)) throw new DomainError('area_disabled', asker.areaOff(area), { cause: `area-${area}-off`, ...toolDetail(asker) });
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

/**
 * Who may see a plan at all (rule plan-page-site-members-only): a member of the plan's website, as for the website's
 * own page. To anyone else the plan answers exactly as a missing one, so its page tells nothing of a website the
 * person cannot open (an invitee's email, a draft's text).
 */
export function mayViewPlan(ws: WorkspaceDoc, plan: Plan, userId: string): boolean {
  return Boolean(entryOf(ws.sites, plan.websiteId)?.members[userId]);
}

/**
 * Who may approve or decline a plan (rules plan-approval-signed-in-owner, plan-approver-owner-and-creator): an owner
 * of the plan's website who also created the plan's connection. The plan page shows its buttons by the same answer.
 */
export function mayDecidePlan(ws: WorkspaceDoc, plan: Plan, userId: string): boolean {
  const connection = entryOf(ws.connections, plan.connectionId);
  const site = entryOf(ws.sites, plan.websiteId);
  return !!connection && !!site && site.members[userId] === 'owner' && connection.createdBy === userId;
}

export function checkPlanDecider(ws: WorkspaceDoc, plan: Plan, userId: string): void {
  if (!mayDecidePlan(ws, plan, userId)) throw new DomainError('owner_only', 'Only the owner of this website who created the connection can decide on this plan.');
}

/**
 * The website a company-creation plan is approved on (rule plan-company-anchor-context-only): the connection's
 * pinned site, or the one named on workspace reach; the creator must own it.
 */
export function checkApprovalAnchor(ws: WorkspaceDoc, connection: Connection, websiteId: string | undefined): Site {
  const anchorId = connection.reach === 'website' ? connection.websiteId : (websiteId ?? connection.websiteId);
  if (websiteId !== undefined && websiteId !== anchorId) throw websiteNotFound(websiteId);
  const anchor = entryOf(ws.sites, anchorId);
  // A named site that is not here (missing, or another tenant's) answers like any missing site (rule
  // authz-cross-tenant-not-found); only a call naming none is asked for one.
  if (anchorId && !anchor) throw websiteNotFound(anchorId);
  if (!anchorId || !anchor) throw new DomainError('website_required', 'Company creation is approved on one of your websites: pass websiteId (from list_sites).');
  if (anchor.members[connection.createdBy] !== 'owner') {
    throw new DomainError('owner_only', 'Only an owner of the anchor website who created this connection can have a company created.');
  }
  return anchor;
}

/** How a refusal of checkOwnerOf names what was asked. */
export interface OwnerWording {
  companyWide: string;
  noSite(websiteId: string): string;
  notOwner: string;
}

/**
 * Who may give a tool access (rules connection-created-by-site-owner-only, pairing-approval-owner-only,
 * pairing-company-wide*): for one website, an owner of it; for the whole company (no website), the company owner.
 */
export function checkOwnerOf(ws: WorkspaceDoc, userId: string, websiteId: string | null, wording: OwnerWording): Site | undefined {
  if (websiteId === null) {
    if (ws.ownerUserId !== userId) throw new DomainError('owner_only', wording.companyWide);
    return undefined;
  }
  const site = entryOf(ws.sites, websiteId);
  if (!site) throw new DomainError('not_found', wording.noSite(websiteId));
  if (site.members[userId] !== 'owner') throw new DomainError('owner_only', wording.notOwner);
  return site;
}

/** A person editing a site in the app (§1.1): an owner or editor of it (rule service-same-functions-as-app). */
export function checkAppEditor(ws: WorkspaceDoc, userId: string, websiteId: string): Site {
  const site = entryOf(ws.sites, websiteId);
  if (!site) throw new DomainError('not_found', `No website "${websiteId}".`);
  const role = site.members[userId];
  if (!role || ROLE_RANK[role] < ROLE_RANK.editor) throw new DomainError('access_denied', 'Only an owner or editor of this website can edit it.');
  return site;
}

/** Sites a connection can see now, each with its creator's role there: its reach, filtered by the creator's live membership (list_sites). */
export function visibleSites(ws: WorkspaceDoc, connection: Connection): { site: Site; role: Role }[] {
  const sites = connection.reach === 'website' ? [entryOf(ws.sites, connection.websiteId)].filter((s): s is Site => !!s) : Object.values(ws.sites);
  return sites
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.websiteId.localeCompare(b.websiteId))
    .flatMap((site) => {
      const role = site.members[connection.createdBy];
      return role ? [{ site, role }] : [];
    });
}
