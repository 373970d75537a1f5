// API tokens as the reference mints them (§2.1; reference/auth/tokens.ts). The features check a token black-box
// (prefix, shown once, never readable again); these pin what is stored: the SHA-256 hex of the plaintext, and a
// display prefix long enough to tell two tokens apart in Developers settings.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, mintToken, TOKEN_PREFIX } from '../auth/tokens.js';

describe('mintToken rule:token-live-prefix rule:token-hash-only-stored', () => {
  it('a token is smcp_live_ and 32 random bytes; only its SHA-256 hex and a short prefix are kept', () => {
    const { token, hash, displayPrefix } = mintToken();
    expect(TOKEN_PREFIX).toBe('smcp_live_');
    expect(token).toMatch(/^smcp_live_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(hash);
    // The fixed prefix and the first 4 random characters: enough to tell tokens apart, useless to an attacker.
    expect(displayPrefix).toBe(token.slice(0, 14));
    expect(mintToken().token).not.toBe(token);
  });
});
