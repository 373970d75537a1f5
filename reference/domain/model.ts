// The stored records of the reference server. One WorkspaceDoc per workspace (company) is the unit of
// transactions: every business operation reads and writes one of them. The store keeps it as one document per
// site plus one for the rest (reference/infra/store/README.md) and writes only what an operation changed, so the cost
// of a write grows neither with the number of workspaces nor with the number of websites in one.
import type { PlanKind, Role } from './vocabulary.js';
import type { SectionType } from '../../generated/schemas/section-content.js';
import type { Layout } from '../../generated/schemas/layout.js';

export type { SectionType };

/**
 * The entry of an id-keyed record under `id` when it is the record's own: ids come from callers, and a plain
 * object also answers inherited names ("toString", "constructor", "__proto__"), which would make a missing plan
 * or site look like an existing one (rule authz-cross-tenant-not-found: a missing id answers not found).
 */
export function entryOf<T>(record: Record<string, T>, id: string | undefined | null): T | undefined {
  return typeof id === 'string' && Object.hasOwn(record, id) ? record[id] : undefined;
}

export interface WorkspaceDoc {
  id: string;
  companyName: string;
  plan: 'free' | 'starter' | 'business' | 'agency';
  credits: number;
  aiConsent: boolean;
  advancedEditorGrant: boolean;
  /** Product areas an agency switched off for this account (§5.6). */
  areasOff: string[];
  /**
   * Pages one migration may capture for a plan beyond the free allowance (rule migrate-capture-allowance-setting);
   * absent: limits.visualCaptureAllowancePages, the source's default of 20 (rule migrate-capture-allowance).
   */
  captureAllowancePages?: number;
  ownerUserId: string;
  createdAt: string;
  users: Record<string, UserRecord>;
  sites: Record<string, Site>;
  connections: Record<string, Connection>;
  plans: Record<string, Plan>;
  /** planId -> when it expired: garbage-collected plans leave only this, so a late confirm still says "expired". */
  expiredPlans: Record<string, string>;
  /** Messages the service would send (document sends, invitations); the reference server never sends them. */
  outbox: OutboxMessage[];
  /** Billing facts of the company. A company made through the reviewed rail has none of them (§2.7). */
  billing: { monthlyCreditReset: boolean; trialEndsAt: string | null; paymentCustomerId: string | null };
}

export interface OutboxMessage {
  messageId: string;
  kind: 'document' | 'invitation';
  websiteId: string;
  subjectId: string;
  queuedAt: string;
}

export interface UserRecord {
  userId: string;
  name: string;
  email: string;
  /**
   * scrypt hash for the app sign-in page; never returned. Absent for a user who has no password yet (a test
   * world built with passwords on demand): signing in as them checks the dummy hash and fails, at the cost of an
   * unknown email (rule sign-in-unknown-email-same-cost).
   */
  passwordHash?: string;
}

export interface Site {
  websiteId: string;
  name: string;
  businessName: string;
  createdAt: string;
  updatedAt: string;
  /** userId -> live role on this website (§2.1: re-read on every call). */
  members: Record<string, Role>;
  /** Increases on every draft change; plans pin it (§2.6). */
  siteRevision: number;
  draft: SiteContent;
  published: PublishedSnapshot | null;
  searchVisible: boolean;
  changes: DraftChange[];
  brand: Brand;
  analytics: AnalyticsIds;
  contact: ContactBlock;
  stats: { visits: number; uniqueVisitors: number };
  records: SiteRecords;
  /** sectionId -> field names edited in the app since the last import sync (merge rules, §4.3). */
  appEdits: Record<string, string[]>;
  /**
   * sectionId -> field -> the value last pushed for it by an import, merge or migration: the base of the
   * three-way merge (rule import-merge-three-way). Absent on sites stored before bases were kept.
   */
  syncBases?: Record<string, Record<string, unknown>>;
  /** Copies of the draft taken before an import merge (rule import-merge-restore-point); the newest five are kept. */
  /** Oldest first; `bytes`: the draft's size as JSON, measured when it was taken (rule import-merge-restore-point). */
  restorePoints: { restorePointId: string; createdAt: string; draft: SiteContent; bytes?: number }[];
  /** The site's media library (generated images land here); not part of the draft, so not a draft change. */
  library: Asset[];
  /** Read-only delivery tokens (§2.7, §5.5): read the published site only; not MCP connections. Hashes only. */
  deliveryTokens: { tokenHash: string; prefix: string; createdAt: string }[];
  /** Pending invitations created by confirmed grant_access plans; website-scoped, never workspace-wide. */
  invitations: Invitation[];
  /**
   * Pages a migration created typed beyond its capture allowance, waiting for the capture queue
   * (domain/capture-queue.ts, rule migrate-capture-allowance). Absent when none wait.
   */
  captureQueue?: CaptureQueueItem[];
}

export interface CaptureQueueItem {
  pageKey: string;
  /** The source address the page was crawled from. */
  url: string;
  /** Origin of the migrated site: its links become paths of the migrated pages. */
  siteOrigin: string;
  queuedAt: string;
  attempts: number;
}

export interface Invitation {
  invitationId: string;
  email: string;
  level: 'editor' | 'viewer';
  status: 'pending';
  createdAt: string;
  /** Hash of the acceptance secret; the secret goes only to the invitee's mailbox, never to a caller. */
  secretHash: string;
}

export interface SiteContent {
  pages: Page[];
  fonts: { role: 'heading' | 'body'; family: string }[];
  assets: Asset[];
  /** `permanent` as the snapshot gave it: an import keeps a redirect without one as it came. */
  redirects: { from: string; to: string; permanent?: boolean }[];
  collections: { key: string; name: string; items: Record<string, unknown>[] }[];
}

export interface PublishedSnapshot {
  revision: number;
  publishedAt: string;
  content: SiteContent;
}

export interface Page {
  pageId: string;
  /** Stable key used in externalKey <page>/<section>. */
  key: string;
  slug: string;
  title: string;
  kind: 'page' | 'post';
  hidden: boolean;
  seo: { title: string; description: string };
  sections: Section[];
  /** How a migration made the page (rules migrate-capture-then-typed, migrate-capture-status-listed); absent otherwise. */
  capture?: 'captured' | 'queued' | 'typed';
}

export interface Section {
  sectionId: string;
  key: string;
  type: SectionType;
  content: Record<string, unknown>;
  layout: Layout;
  rev: number;
  hidden: boolean;
  /** Typed parts of the section, carried by import and export (rules portable-site-blocks-carried, portable-site-block-typed). Absent on sections stored before blocks were kept. */
  blocks?: Block[];
}

/** A block is typed like a section: a section type and content valid for it (rule portable-site-block-typed). */
export interface Block {
  key: string;
  type: SectionType;
  content: Record<string, unknown>;
}

/** A section's bounded layout tokens (spec/schemas/layout.schema.json, rules layout-tokens-bounded, layout-token-values). */
export type { Layout };

export interface Asset {
  assetId: string;
  key: string;
  url: string;
  alt: string;
  kind: 'image' | 'file';
  /** Bytes of the kept copy this server serves, counted against the workspace's storage quota (assetStorage). */
  bytes?: number;
}

export interface DraftChange {
  revision: number;
  at: string;
  kind: string;
  summary: string;
}

export interface Brand {
  colors: { primary: string; secondary: string; accent: string; background: string; text: string };
  fonts: { heading: string; body: string };
  style: string;
  logoAssetId: string | null;
}

export interface AnalyticsIds {
  googleAnalyticsId?: string;
  googleTagManagerId?: string;
  plausibleDomain?: string;
  metaPixelId?: string;
}

/** A new site's carries its business name; an imported one is the snapshot's, which may leave it out. */
export interface ContactBlock {
  businessName?: string;
  email?: string;
  phone?: string;
  address?: { street?: string; city?: string; postalCode?: string; country?: string };
}

export interface SiteRecords {
  leads: Record<string, unknown>[];
  bookings: Record<string, unknown>[];
  contacts: Record<string, unknown>[];
  products: Record<string, unknown>[];
  services: Record<string, unknown>[];
  documents: Record<string, unknown>[];
  domains: Record<string, unknown>[];
}

export interface Connection {
  connectionId: string;
  kind: 'api-token' | 'paired' | 'oauth';
  createdBy: string;
  reach: 'website' | 'workspace';
  /** The pinned site for website reach; the site whose Developers page created it otherwise (may be null). */
  websiteId: string | null;
  scopes: string[];
  presetLabel: string;
  /** SHA-256 hex of the plaintext token; the plaintext is never stored (§2.1). */
  tokenHash: string;
  tokenPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  /** What the owner called it in Developers settings (absent for connections made by pairing, OAuth or tests). */
  name?: string;
  /** For OAuth connections: the client and subject the 5-minute delegation binds to this connection (§5.1). */
  oauth?: { clientId: string; subject: string };
}

export interface Plan {
  planId: string;
  kind: PlanKind;
  connectionId: string;
  websiteId: string;
  status: 'awaiting_approval' | 'approved' | 'declined' | 'redeemed' | 'expired';
  createdAt: string;
  expiresAt: string;
  pinned: { siteRevision?: number; productRevision?: number; documentFingerprint?: string };
  params: Record<string, unknown>;
  summary: string;
}
