import { hashApiKey, keyPrefix, sameHash } from '../core/api-keys';
import type { Clock } from '../core/clock';
import { ConfigError } from '../core/config';
import type { Database } from '../db/driver';
import { insertAccountWithKey } from './accounts';

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
    await insertAccountWithKey(tx, clock, { plan: 'enterprise', name: 'Bootstrap', key });
    return 'made';
  });
}
