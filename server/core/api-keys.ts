import { createHash, timingSafeEqual } from 'node:crypto';
import { isWellFormedKey, KEY_MARKER, KEY_RANDOM_LENGTH } from '../../lib/api/key-shape';
import { randomBase62 } from './ids';

export { isWellFormedKey, KEY_MARKER };

/** Characters of a key kept in clear for display and lookup: the marker and 4 random characters. */
export const KEY_PREFIX_LENGTH = KEY_MARKER.length + 4;
/** A new key: `pp_live_` and 32 base62 characters (~190 bits), recognisable by scanners and people. */
export function generateApiKey(): string {
  return KEY_MARKER + randomBase62(KEY_RANDOM_LENGTH);
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
