// Names shared by the whole server, taken from spec/ so that the spec stays the single source of truth.
import type { ErrorCode } from '../../generated/schemas/error.js';
import type { PlanKind, Role } from '../../generated/schemas/common.js';

export type { ErrorCode, PlanKind, Role };

/** Role rank: a tool needing `editor` accepts an owner too. */
export const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };
