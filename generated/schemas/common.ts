/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Id".
 */
export type Id = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "WebsiteId".
 */
export type WebsiteId = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "PlainText".
 */
export type PlainText = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "ShortText".
 */
export type ShortText = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Slug".
 */
export type Slug = string;
/**
 * https URL, site path, mailto: or tel: link.
 *
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Href".
 */
export type Href = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Hostname".
 */
export type Hostname = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Timestamp".
 */
export type Timestamp = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Email".
 */
export type Email = string;
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "Role".
 */
export type Role = 'owner' | 'editor' | 'viewer';
/**
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "PlanKind".
 */
export type PlanKind =
  | 'publish'
  | 'unpublish'
  | 'publish_product'
  | 'grant_access'
  | 'send_document'
  | 'create_company'
  | 'search_visibility';

/**
 * Shapes shared by tool schemas. Referenced as common.schema.json#/$defs/<name>.
 */
export interface Common {
  [k: string]: unknown | undefined;
}
/**
 * What an agent host shows the owner before approval. Carries nothing secret.
 *
 * This interface was referenced by `Common`'s JSON-Schema
 * via the `definition` "ReviewCard".
 */
export interface ReviewCard {
  planId: Id;
  kind: PlanKind;
  websiteId: Id;
  websiteName?: string;
  /**
   * What will happen, in plain language.
   */
  summary: string;
  pinned?: {
    siteRevision?: number;
    productRevision?: number;
    documentFingerprint?: string;
  };
  expiresAt: Timestamp;
  /**
   * The app page where a signed-in owner approves this plan.
   */
  approvalUrl: string;
  /**
   * What the caller does after approval.
   */
  next?: string;
}
