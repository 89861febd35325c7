import { hashApiKey, keyPrefix, sameHash } from '../core/api-keys';
import type { Clock } from '../core/clock';
import { ConfigError } from '../core/config';
import { newId } from '../core/ids';
import type { Database } from '../db/driver';

// Any constant: nodes starting at once on one database make the account once.
const BOOTSTRAP_LOCK = 7_208_432;

/** Makes an Enterprise account holding `key` (BOOTSTRAP_KEY) unless an account already has it. */
export async function ensureBootstrapAccount(
  db: Database,
  clock: Clock,
  key: string,
): Promise<'made' | 'kept'> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const [held] = await tx.query<{ hash: string }>('select hash from api_keys where prefix = $1', [
      keyPrefix(key),
    ]);
    if (held) {
      if (sameHash(held.hash, hashApiKey(key))) return 'kept';
      throw new ConfigError(
        'BOOTSTRAP_KEY begins like a key another account holds; choose another (npm run service -- keys create makes one).',
      );
    }
    const now = clock.now();
    const accountId = newId('acc');
    await tx.query('insert into accounts (id, name, plan, created_at) values ($1, $2, $3, $4)', [
      accountId,
      'Bootstrap',
      'enterprise',
      now,
    ]);
    await tx.query(
      `insert into api_keys (id, account_id, name, prefix, hash, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, null)`,
      [newId('key'), accountId, 'BOOTSTRAP_KEY', keyPrefix(key), hashApiKey(key), now],
    );
    return 'made';
  });
}
