// Opaque, unguessable identifiers. A prefix says what an id names, which helps people reading logs.
import { randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}
