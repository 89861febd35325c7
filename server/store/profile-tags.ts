import type { ProfileTag } from '../../lib/api/schemas/profiles';
import type { Queryable } from '../db/driver';
import { encodeCursor, type Page } from './pagination';
import { type Reader, scopeOfTags } from './scope';

/**
 * The tags of the profiles `reader` may see (a scoped key: the profiles of its scope), with how many of them carry
 * each, most used first and then A to Z: `limit` of them from `offset` on, and the cursor of the rest.
 */
export async function listProfileTags(
  db: Queryable,
  reader: Reader,
  { limit, offset }: { limit: number; offset: number },
): Promise<Page<ProfileTag>> {
  const params: unknown[] = [reader.id];
  const where = ['p.account_id = $1', ...scopeOfTags(reader, params)];
  params.push(limit + 1, offset);
  const rows = await db.query<ProfileTag>(
    `select t.tag, count(distinct p.id)::int as count
       from profiles p cross join lateral jsonb_array_elements_text(p.tags) as t(tag)
      where ${where.join(' and ')}
      group by t.tag
      order by count desc, t.tag
      limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return {
    data: rows.slice(0, limit),
    next_cursor: rows.length > limit ? encodeCursor(offset + limit) : null,
  };
}
