// API tokens (§2.1): a fixed prefix ending in _live_, 32 random bytes; only the SHA-256 hash and a short
// display prefix are kept.
import { hash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'smcp_live_';

export function mintToken(): { token: string; hash: string; displayPrefix: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token), displayPrefix: token.slice(0, TOKEN_PREFIX.length + 4) };
}

/** SHA-256, hex. Node's one-shot hash: the same digest without a Hash object per call (every MCP call hashes its bearer). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
