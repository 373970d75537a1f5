// Names shared by the whole server, taken from spec/ so that the spec stays the single source of truth.
import type { ErrorCode } from '../../generated/schemas/error.js';

export type Role = 'owner' | 'editor' | 'viewer';
export type PlanKind =
  | 'publish'
  | 'unpublish'
  | 'publish_product'
  | 'grant_access'
  | 'send_document'
  | 'create_company'
  | 'search_visibility';
export type { ErrorCode };

/** Role rank: a tool needing `editor` accepts an owner too. */
export const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };
