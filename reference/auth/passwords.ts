// Password hashing for the app sign-in page, with Node's scrypt (never hand-rolled).
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

/** Node's scrypt with its default cost parameters, as a promise (promisify loses the overloads' types). */
function scrypt(password: string, salt: Buffer, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

// The hash of a random password nobody kept, with the same scheme and parameters as hashPassword. Checking a
// password against it for an unknown email makes that answer cost one scrypt, like a known email's wrong
// password, so the time taken does not tell which emails have accounts (rule sign-in-unknown-email-same-cost).
const DUMMY_HASH = 'scrypt$Yo611XPXKrRwUiOihPw0AQ$S002AG9fx2Gd-R-y3E41SHvEWsP6AdhRKjzj_Z1xwCA';

/** verifyPassword for a sign-in: with no stored hash (unknown email) it still runs scrypt and answers false. */
export async function verifySignInPassword(password: string, stored: string | undefined): Promise<boolean> {
  const matches = await verifyPassword(password, stored ?? DUMMY_HASH);
  return stored !== undefined && matches;
}
