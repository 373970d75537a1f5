// Time as each workspace sees it. Production offsets are zero; the fixtures protocol advances one workspace's
// clock so that plan expiry, rate-limit windows and retention can be tested without disturbing other tenants.
import type { WorkspaceDoc } from './model.js';

export function workspaceNow(ws: Pick<WorkspaceDoc, 'clockOffsetMs'>): Date {
  return new Date(Date.now() + ws.clockOffsetMs);
}
