import type { Profile } from '../../lib/api/schemas/profiles';
import type { Queryable } from '../db/driver';
import { queryAsJson } from './json-rows';
import { HELD_BY_COLUMNS, type HeldByColumns } from './leases';
import { nextCursor, sortKeyColumn } from './profile-order';
import {
  JOIN_LIVE_PARTS,
  listConditions,
  PROFILES_LIVE_FROM,
  type ProfileListOptions,
  type ProfileRow,
  SELECT_PROFILES,
  toProfile,
} from './profiles';
import type { Reader } from './scope';
import { searchPieceOf } from './search-trigrams';

/**
 * A listed profile without its content: where it is, its revision (raised by the database on every change of its
 * row or of its saved proxy, migration 033) and what its live session and lease say.
 */
export interface ProfileEntry extends HeldByColumns {
  seq: number;
  id: string;
  revision: number;
  live_session_id: string | null;
  sort_key?: string | number;
}

/**
 * A page of the account's profiles as entries, for a caller that keeps their content. Unless the list is narrowed
 * or ordered by status, the page is chosen from the profiles alone and only its profiles are joined to their live
 * parts: a search matching all of 10,000 profiles joined every match before keeping the first 51 (38 ms of PGlite's
 * CPU against 6).
 */
export async function listProfileEntries(
  db: Queryable,
  reader: Reader,
  options: ProfileListOptions,
): Promise<{ entries: ProfileEntry[]; next_cursor: string | null }> {
  const params: unknown[] = [reader.id];
  const searchPiece = options.q ? await searchPieceOf(db, options.q) : undefined;
  const { sql, outputOrder } = listConditions(reader, { ...options, searchPiece }, params);
  const sortKey = sortKeyColumn(options.sort);
  const live = `s.id as live_session_id, ${HELD_BY_COLUMNS}`;
  const rows = await queryAsJson<ProfileEntry>(
    db,
    options.status !== undefined || options.sort === 'status'
      ? `select p.seq, p.id, p.revision, ${live}${sortKey} ${PROFILES_LIVE_FROM} ${sql}`
      : `select p.*, ${live} from (select p.seq, p.id, p.revision${sortKey} from profiles p ${sql}) p
           ${JOIN_LIVE_PARTS}`,
    params,
    outputOrder,
  );
  return {
    entries: rows.slice(0, options.limit),
    next_cursor: nextCursor(options.sort, rows, options.limit),
  };
}

/** The account's profiles of these ids, each with its revision; an id that is not one of them is left out. */
export async function profilesWithRevisions(
  db: Queryable,
  accountId: string,
  ids: string[],
): Promise<Map<string, { revision: number; profile: Profile }>> {
  const rows = await queryAsJson<ProfileRow & { revision: number }>(
    db,
    `select r.*, p.revision from (${SELECT_PROFILES} where p.account_id = $1 and p.id = any($2::text[])) r
       join profiles p on p.id = r.id`,
    [accountId, ids],
    'seq desc',
  );
  return new Map(rows.map((row) => [row.id, { revision: row.revision, profile: toProfile(row) }]));
}
