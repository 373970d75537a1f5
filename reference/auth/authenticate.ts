// Bearer authentication at the MCP edge (§4.1, §5.2): the presented token is hashed and looked up; the
// plaintext is never stored or compared. A revoked connection, or a token of any other kind (e.g. a
// read-only delivery token), is not a connection and authenticates nothing.
import type { Store, Transaction } from '../infra/store/store.js';
import type { Connection } from '../domain/model.js';
import { hashToken, TOKEN_PREFIX } from './tokens.js';
import { entryOf } from '../domain/model.js';

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
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) return null;
  // A JWT is an OAuth access token: verified at the edge and bound to one connection by delegation (§5.1).
  if (oauth && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return (await oauth()).edge.authenticate(store, token);
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const entry = await store.lookupDirectory('token', hashToken(token));
  if (!entry) return null;
  // indexConnection writes the entry as "<workspaceId> <connectionId>".
  const [workspaceId, connectionId] = entry.split(' ');
  if (!workspaceId || !connectionId) return null;
  const ws = await store.read(workspaceId);
  const connection = (ws ? entryOf(ws.connections, connectionId) : undefined);
  if (!connection || connection.revokedAt) return null;
  return { workspaceId, connectionId, scopes: connection.scopes };
}
