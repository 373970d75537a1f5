// Creating and finding connections (§2.1, §5.2). The Developers page and the fixtures protocol both call
// createConnection, so the owner-only rule has one home.
import type { Connection, WorkspaceDoc } from './model.js';
import { newId } from './ids.js';
import { mintToken } from '../auth/tokens.js';
import { displayLabel, resolveScopes } from './scopes.js';
import { DomainError } from './errors.js';
import { checkOwnerOf } from './authorize.js';

export interface CreateConnectionInput {
  userId: string;
  websiteId: string | null;
  reach?: 'website' | 'workspace';
  scopes?: string[];
  preset?: string;
  kind?: Connection['kind'];
  createdAt?: Date;
}

/** Mutates `ws` (call inside a transaction). Returns the connection and the plaintext token, shown once. */
export function createConnection(ws: WorkspaceDoc, input: CreateConnectionInput, now: Date): { connection: Connection; token: string } {
  const reach = input.reach ?? 'website';
  const user = ws.users[input.userId];
  if (!user) throw new DomainError('not_found', `No user "${input.userId}" in this workspace.`);
  // Company-wide (no website): only the company owner (§5.4); one website: an owner of it.
  checkOwnerOf(ws, input.userId, input.websiteId, {
    companyWide: 'Only the company owner can create a company-wide connection.',
    noSite: (websiteId) => `No website "${websiteId}" in this workspace.`,
    notOwner: 'Only an owner of this website can create a connection (rule connection-created-by-site-owner-only).',
  });
  if (input.websiteId === null && reach !== 'workspace') throw new DomainError('validation_failed', 'A connection without a website must have workspace reach.');
  const createdAt = input.createdAt ?? now;
  const resolved = resolveScopes({ scopes: input.scopes, preset: input.preset }, createdAt);
  const minted = mintToken();
  const connection: Connection = {
    connectionId: newId('conn'),
    kind: input.kind ?? 'api-token',
    createdBy: input.userId,
    reach,
    websiteId: input.websiteId,
    scopes: resolved.scopes,
    presetLabel: resolved.presetLabel,
    tokenHash: minted.hash,
    tokenPrefix: minted.displayPrefix,
    createdAt: createdAt.toISOString(),
    revokedAt: null,
  };
  ws.connections[connection.connectionId] = connection;
  return { connection, token: minted.token };
}

/** A connection as the Developers page shows it: never the token or its hash. */
export function connectionView(connection: Connection, now: Date) {
  return {
    connectionId: connection.connectionId,
    kind: connection.kind,
    reach: connection.reach,
    websiteId: connection.websiteId,
    scopes: connection.scopes,
    presetLabel: displayLabel(connection.scopes, connection.presetLabel, now),
    tokenPrefix: connection.tokenPrefix,
    createdBy: connection.createdBy,
    createdAt: connection.createdAt,
    revokedAt: connection.revokedAt,
  };
}
