// Bearer authentication at the MCP edge (§4.1, §5.2): the presented token is hashed and looked up; the
// plaintext is never stored or compared. A revoked connection, or a token of any other kind (e.g. a
// read-only delivery token), is not a connection and authenticates nothing.
import type { Store, Transaction } from '../store/store.js';
import type { Connection } from './model.js';
import { hashToken, TOKEN_PREFIX } from './tokens.js';
import { entryOf } from './model.js';

export interface AuthenticatedConnection {
  workspaceId: string;
  connectionId: string;
  scopes: string[];
}

/**
 * Makes a new connection findable by its token hash (MCP edge) and by its id (Developers page, fixtures), in
 * the transaction that creates it (rule store-lookups-with-document).
 */
export function indexConnection(tx: Transaction, connection: Pick<Connection, 'tokenHash' | 'connectionId'>, workspaceId: string): void {
  tx.index('token', connection.tokenHash, `${workspaceId} ${connection.connectionId}`);
  tx.index('connection', connection.connectionId, workspaceId);
}

export async function authenticateBearer(store: Store, authorization: string | undefined, oauth?: () => Promise<{ edge: { authenticate(store: Store, token: string): Promise<AuthenticatedConnection | null> } }>): Promise<AuthenticatedConnection | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  // A JWT is an OAuth access token: verified at the edge and bound to one connection by delegation (§5.1).
  if (oauth && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(match[1]!)) return (await oauth()).edge.authenticate(store, match[1]!);
  if (!match[1]!.startsWith(TOKEN_PREFIX)) return null;
  const entry = await store.lookupDirectory('token', hashToken(match[1]!));
  if (!entry) return null;
  const [workspaceId, connectionId] = entry.split(' ') as [string, string];
  const ws = await store.read(workspaceId);
  const connection = (ws ? entryOf(ws.connections, connectionId) : undefined);
  if (!connection || connection.revokedAt) return null;
  return { workspaceId, connectionId, scopes: connection.scopes };
}
