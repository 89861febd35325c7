import type { Identity } from '../../lib/api/schemas/identity';
import type { Queryable } from '../db/driver';

/**
 * Gives a profile made before identities existed the identity `identity`, unless another start gave it one
 * meanwhile; answers the one it has now (null if the profile is gone).
 */
export async function fillMissingIdentity(
  db: Queryable,
  accountId: string,
  profileId: string,
  identity: Identity,
): Promise<Identity | null> {
  const rows = await db.query<{ identity: Identity }>(
    `update profiles set identity = coalesce(identity, $3::jsonb)
      where account_id = $1 and id = $2 returning identity`,
    [accountId, profileId, JSON.stringify(identity)],
  );
  return rows[0]?.identity ?? null;
}
