import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// The largest multiple of 62 below 256: bytes above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

/** `length` characters of 0-9A-Za-z from the system's secure random source. */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) text += BASE62[byte % 62];
      if (text.length === length) break;
    }
  }
  return text;
}

export type IdPrefix =
  | 'acc'
  | 'key'
  | 'prf'
  | 'prx'
  | 'pck'
  | 'ses'
  | 'run'
  | 'bat'
  | 'whk'
  | 'nod'
  | 'hlp'
  | 'mem'
  | 'aud';

/** An opaque id such as `prf_4fG…`: a type prefix and 20 random base62 characters (~119 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
