import type { ProfileSortName } from '../../lib/api/profile-sorts';
import { encodeCursor } from './pagination';

/** Where the next page of a list in another order than `created` starts: after this key and seq. */
export interface SortedPosition {
  key: string | number;
  seq: number;
}

interface Order {
  /** An expression over `p` (the profile) and `s` (its live session). */
  key: string;
  type: 'text' | 'bigint';
  direction: 'asc' | 'desc';
}

/** Each order, ties broken newest first; never used sorts last. */
const ORDERS: Record<Exclude<ProfileSortName, 'created'>, Order> = {
  name: { key: 'lower(p.name)', type: 'text', direction: 'asc' },
  last_used: {
    key: 'coalesce((extract(epoch from p.last_used_at) * 1000000)::bigint, 0)',
    type: 'bigint',
    direction: 'desc',
  },
  status: { key: '(s.id is not null)::int::bigint', type: 'bigint', direction: 'desc' },
};

/** The sort key as an output column (`sort_key`), or nothing for `created`, which is `seq`. */
export function sortKeyColumn(sort: ProfileSortName = 'created'): string {
  return sort === 'created' ? '' : `, ${ORDERS[sort].key} as sort_key`;
}

/**
 * The condition that starts the page after `after` (its value added to `params`), the ORDER BY over `p`, and the
 * same order over the select's output columns (for `queryAsJson`).
 */
export function orderOf(
  sort: ProfileSortName = 'created',
  after: number | SortedPosition | null,
  params: unknown[],
): { where: string | null; orderBy: string; outputOrder: string } {
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (sort === 'created') {
    const seq = typeof after === 'number' ? after : null;
    return {
      where: seq === null ? null : `p.seq < ${bind(seq)}`,
      orderBy: 'p.seq desc',
      outputOrder: 'seq desc',
    };
  }
  const { key, type, direction } = ORDERS[sort];
  const position = after !== null && typeof after === 'object' ? after : null;
  let where: string | null = null;
  if (position) {
    const value = `${bind(position.key)}::${type}`;
    where = `(${key} ${direction === 'asc' ? '>' : '<'} ${value} or (${key} = ${value} and p.seq < ${bind(position.seq)}))`;
  }
  return {
    where,
    orderBy: `${key} ${direction}, p.seq desc`,
    outputOrder: `sort_key ${direction}, seq desc`,
  };
}

/** The next page's cursor from the `limit + 1` rows read, null on the last page. */
export function nextCursor(
  sort: ProfileSortName = 'created',
  rows: { seq: number; sort_key?: string | number }[],
  limit: number,
): string | null {
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  if (!last) return null;
  if (sort === 'created') return encodeCursor(last.seq);
  return Buffer.from(`${sort}:${JSON.stringify([last.sort_key, last.seq])}`).toString('base64url');
}

/** The position a cursor of a list in `sort` order holds; null when it is not one of that order's cursors. */
export function readSortedCursor(
  sort: Exclude<ProfileSortName, 'created'>,
  cursor: string,
): SortedPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(`${sort}:`)) return null;
  try {
    const [key, seq] = JSON.parse(text.slice(sort.length + 1)) as unknown[];
    const keyFits = ORDERS[sort].type === 'text' ? typeof key === 'string' : Number.isSafeInteger(key);
    if (!keyFits || !Number.isSafeInteger(seq) || (seq as number) <= 0) return null;
    return { key: key as string | number, seq: seq as number };
  } catch {
    return null;
  }
}
