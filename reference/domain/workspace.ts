// A new, empty workspace document: the one place its shape is spelled out. The world builder (test mode), the
// demo seed and company creation pass only what differs; the first two add users and sites with the helpers below.
import type { UserRecord, WorkspaceDoc } from './model.js';
import type { DirectoryKind } from '../infra/store/store.js';
import { newId } from './ids.js';
import { hashPassword } from '../auth/passwords.js';
import { DomainError } from './errors.js';

type Required = 'companyName' | 'plan' | 'ownerUserId';

export function newWorkspaceDoc(fields: Pick<WorkspaceDoc, Required> & Partial<Omit<WorkspaceDoc, Required>>, now: Date): WorkspaceDoc {
  return {
    id: newId('ws'),
    credits: 0,
    aiConsent: false,
    advancedEditorGrant: false,
    areasOff: [],
    createdAt: now.toISOString(),
    users: {},
    sites: {},
    connections: {},
    plans: {},
    expiredPlans: {},
    outbox: [],
    billing: { monthlyCreditReset: false, trialEndsAt: null, paymentCustomerId: null },
    ...fields,
  };
}

/** A user with a new id, an address made from that id, and the scrypt hash of `password` (never stored in clear). */
/** A new user; without a password (test worlds built with passwords on demand) they cannot sign in until given one. */
export async function newUser(name: string, emailOf: (userId: string) => string, password: string | undefined): Promise<UserRecord> {
  const userId = newId('user');
  const user: UserRecord = { userId, name, email: emailOf(userId) };
  if (password !== undefined) user.passwordHash = await hashPassword(password);
  return user;
}

/** The lookup entries a new workspace document is created with: its sites, its users and their addresses. */
export function lookupsOfNew(doc: WorkspaceDoc): [DirectoryKind, string][] {
  return [
    ...Object.values(doc.sites).map((site): [DirectoryKind, string] => ['site', site.websiteId]),
    ...Object.values(doc.users).flatMap((user): [DirectoryKind, string][] => [['user', user.userId], ['email', user.email]]),
  ];
}

/** The limits a workspace's plan sets on its sites (spec/limits.json siteLimitByPlan). */
export interface SiteLimits {
  siteLimitByPlan: Record<string, number>;
}

/**
 * Refuses one more site past the plan's limit. Checked at the gate and again inside the commit transaction, so two
 * concurrent calls cannot both take the last slot (rule create-site-limit-twice).
 */
export function checkSiteLimit(limits: SiteLimits, ws: WorkspaceDoc, adding = 1): void {
  const limit = limits.siteLimitByPlan[ws.plan] ?? 0;
  const count = Object.keys(ws.sites).length;
  if (count + adding > limit) {
    throw new DomainError('site_limit_reached', `The ${ws.plan} plan allows ${limit} website${limit === 1 ? '' : 's'} and this workspace has ${count}. The owner can change plans in the app.`, { limit });
  }
}

/** The storage quota of a workspace (spec/limits.json assetStorage); without one, storage is not counted. */
export interface StorageLimits {
  assetStorage?: { perWorkspaceBytes: number };
}

/**
 * The bytes of kept copies the workspace's sites name in their drafts, each copy once (copies are named by their
 * content, so the same image in two sites is one file). Assets kept before bytes were recorded count nothing.
 */
export function storageUsed(ws: WorkspaceDoc): number {
  const sizes = new Map<string, number>();
  for (const site of Object.values(ws.sites)) for (const asset of site.draft.assets) if (asset.bytes) sizes.set(asset.url, asset.bytes);
  let total = 0;
  for (const bytes of sizes.values()) total += bytes;
  return total;
}

/**
 * The quota and the bytes after a write that grew the workspace's kept copies past its quota, else undefined
 * (rule import-assets-within-storage-quota); a write that adds nothing passes even when a lowered quota is already
 * exceeded.
 */
export function overStorageQuota(limits: StorageLimits, before: number, ws: WorkspaceDoc): { quota: number; after: number } | undefined {
  const quota = limits.assetStorage?.perWorkspaceBytes;
  if (quota === undefined) return undefined;
  const after = storageUsed(ws);
  return after > quota && after > before ? { quota, after } : undefined;
}

/**
 * Refuses a write that grew the workspace's kept copies past its quota. Checked inside the transaction against the
 * fresh document, so two imports cannot both take the last bytes.
 */
export function checkStorageQuota(limits: StorageLimits, before: number, ws: WorkspaceDoc): void {
  const over = overStorageQuota(limits, before, ws);
  if (over) {
    throw new DomainError('over_cap', `This workspace's websites may keep ${over.quota} bytes of images and files; this import would make it ${over.after}. Remove unused assets or import fewer.`, { limit: over.quota });
  }
}
