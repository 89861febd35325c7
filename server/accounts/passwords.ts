import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords, hashed with scrypt from node:crypto (N = 2^15, r = 8, p = 1: about 32 MiB and a tenth of a
 * second a hash, in libuv's thread pool, off the event loop). Stored as `scrypt$N$r$p$salt$hash`, so the cost
 * can be raised later and old hashes still checked.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of no one's password, checked when the email is unknown: a sign-in then takes as long as one with a
 * wrong password, so the time of the answer does not tell whether the email has an account.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

function derive(
  password: string,
  salt: Buffer,
  cost: ScryptOptions & { N: number; r: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // 128·N·r bytes of memory, and some room: Node's default cap (32 MiB) is exactly one hash's worth.
    const maxmem = 256 * cost.N * cost.r;
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
