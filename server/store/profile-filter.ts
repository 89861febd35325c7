import { escapeLike } from './like';

export type ProfileStatusFilter = 'idle' | 'running';

/**
 * What a list of profiles is narrowed to: `q` in the name, a tag, the notes or the proxy (`#q` a tag beginning
 * with q), one exact `tag`, a status.
 */
export interface ProfileFilter {
  q?: string | undefined;
  tag?: string | undefined;
  status?: ProfileStatusFilter | undefined;
  /**
   * How a `q` with a trigram is looked up (search-trigrams.ts): through the trigram index by this piece of it, by no
   * index (null: `q` is common, the profiles are read in the list's order until the page is full), or through the
   * index by all of it (not given: no statistics yet).
   */
  searchPiece?: string | null | undefined;
}

/**
 * The filter as conditions over `p` (the profile) and `s` (its live session), their values added to `params`.
 * Only the filters given, and no `$n is null or …`, so that a prepared statement's generic plan can use an
 * index for them.
 */
export function filterConditions(filter: ProfileFilter, params: unknown[]): string[] {
  const where: string[] = [];
  const tagStart = filter.q && /^#(.+)$/.exec(filter.q)?.[1];
  if (tagStart) {
    const start = bind(params, `${escapeLike(tagStart)}%`);
    where.push(
      `exists (select from jsonb_array_elements_text(p.tags) t where lower(t) like lower(${start}) escape '\\')`,
    );
  } else if (filter.q && TRIGRAM.test(filter.q) && filter.searchPiece !== undefined) {
    const contains = `strpos(p.search_text, lower(${bind(params, filter.q)})) > 0`;
    // A sub-select, so that the statement's one plan serves every piece (see below).
    const piece = filter.searchPiece && `(select '%' || lower(${bind(params, filter.searchPiece)}) || '%')`;
    where.push(piece ? `p.search_text like ${piece} and ${contains}` : contains);
  } else if (filter.q) {
    // search_text is the name, tags, notes and proxy lowercased by the database (migration 033): lowered here the
    // same way. Its trigram index serves a pattern with three letters or digits in a row. Such a pattern is a
    // sub-select, so that a statement's one plan (the index's) serves every pattern: planned for the pattern given,
    // a search was planned again at every run from a few thousand profiles on, half its cost at 10,000. A shorter
    // pattern, which the index cannot serve, is planned for: the newest profiles first until the page is full.
    const pattern = `lower(${bind(params, `%${escapeLike(filter.q)}%`)})`;
    where.push(`p.search_text like ${TRIGRAM.test(filter.q) ? `(select ${pattern})` : pattern} escape '\\'`);
  }
  if (filter.tag) where.push(`p.tags @> jsonb_build_array(${bind(params, filter.tag)}::text)`);
  if (filter.status) where.push(filter.status === 'running' ? 's.id is not null' : 's.id is null');
  return where;
}

/** Three letters or digits in a row: a trigram of pg_trgm's, which the search index can look up. */
const TRIGRAM = /[a-z0-9]{3}/i;

/** Adds a statement parameter and returns its placeholder. */
function bind(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}
