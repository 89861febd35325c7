import type { Queryable } from '../db/driver';

/** A trigram in more than this share of the profiles is left out of an index lookup: its posting list is long. */
const COMMON = 0.1;
/** How long the trigrams' frequencies are used before they are read again; ANALYZE counts them about as often. */
const KEPT_MS = 60_000;

type Frequencies = Map<string, number>;
const known = new WeakMap<Queryable, { readAt: number; frequencies: Promise<Frequencies | null> }>();

/**
 * Which piece of `q` a search looks up in the trigram index (see `SearchPiece`), from how common each trigram of
 * the profiles' search text is (ANALYZE counts them, migration 037). The index reads the posting list of every
 * trigram it is given: `q=Scale 00042` among 10,000 "Scale …" read "sca", "cal" and "ale" in full, and cost
 * twice its cost among 1,000. Only its uncommon stretch `00042` is looked up, the whole `q` then checked on the
 * few profiles found. The counts are of all accounts' profiles together, as the planner's own are.
 */
export async function searchPieceOf(
  db: Queryable,
  q: string,
  now = Date.now(),
): Promise<string | null | undefined> {
  const frequencies = await frequenciesOf(db, now);
  return frequencies ? uncommonPiece(q, frequencies) : undefined;
}

/**
 * The stretch of `q` (letters and digits) whose trigrams are each uncommon and together the rarest, as `q` has it,
 * or null when every trigram of `q` is common. A trigram not counted is rarer than any that is.
 */
export function uncommonPiece(q: string, frequencies: Frequencies): string | null {
  let best: { piece: string; share: number } | null = null;
  for (const run of q.matchAll(/[a-z0-9]{3,}/gi)) {
    const word = run[0];
    let start = -1;
    let share = 1;
    for (let at = 0; at <= word.length - 3; at++) {
      const frequency = frequencies.get(word.slice(at, at + 3).toLowerCase()) ?? 0;
      if (frequency < COMMON) {
        if (start < 0) [start, share] = [at, 1];
        share *= frequency;
      }
      const ends = frequency >= COMMON || at === word.length - 3;
      if (start >= 0 && ends) {
        const piece = word.slice(start, frequency >= COMMON ? at + 2 : at + 3);
        if (!best || share < best.share || (share === best.share && piece.length > best.piece.length))
          best = { piece, share };
        start = -1;
      }
    }
  }
  return best?.piece ?? null;
}

function frequenciesOf(db: Queryable, now: number): Promise<Frequencies | null> {
  let entry = known.get(db);
  if (!entry || now - entry.readAt > KEPT_MS) {
    entry = { readAt: now, frequencies: readFrequencies(db).catch(() => null) };
    known.set(db, entry);
  }
  return entry.frequencies;
}

async function readFrequencies(db: Queryable): Promise<Frequencies | null> {
  const [row] = await db.query<{ trigrams: string[] | null; shares: number[] | null }>(
    `select most_common_elems::text::text[] as trigrams, most_common_elem_freqs as shares from pg_stats_ext_exprs
      where statistics_schemaname = current_schema() and statistics_name = 'profiles_search_trigrams'`,
  );
  const shares = row?.shares;
  if (!row?.trigrams || !shares) return null;
  return new Map(row.trigrams.map((trigram, index) => [trigram, shares[index] ?? 0]));
}
