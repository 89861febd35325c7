import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { type Reader, scopeOfTags } from './scope';

/** How many of `ids` are proxies of the account, locked for share so that none is deleted meanwhile. */
export async function lockOwnProxies(tx: Queryable, accountId: string, ids: string[]): Promise<number> {
  const rows = await tx.query(
    'select id from proxies where account_id = $1 and id = any($2::text[]) for share',
    [accountId, ids],
  );
  return rows.length;
}

/** Points every profile the reader sees on a `from` proxy at its `to` proxy; answers which moved, from which. */
export async function moveProfilesToProxies(
  tx: Queryable,
  clock: Clock,
  reader: Reader,
  replacements: { from: string; to: string }[],
): Promise<{ id: string; from: string }[]> {
  const params: unknown[] = [
    reader.id,
    replacements.map(({ from }) => from),
    replacements.map(({ to }) => to),
    clock.now(),
  ];
  const scope = scopeOfTags(reader, params).map((condition) => ` and ${condition}`);
  return tx.query<{ id: string; from: string }>(
    `update profiles p set proxy_id = v.to_id, updated_at = $4
       from unnest($2::text[], $3::text[]) as v(from_id, to_id)
      where p.account_id = $1 and p.proxy_id = v.from_id${scope.join('')}
      returning p.id, v.from_id as "from"`,
    params,
  );
}
