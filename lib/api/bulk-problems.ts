import type { BulkProblem, BulkResult } from './schemas/bulk';

/** Profiles named per problem of a bulk answer; the rest are counted. */
export const NAMED_PER_PROBLEM = 5;

/**
 * Problems summed up: the same code and sentence said once, their counts added and the first few names and ids kept,
 * the most met first. The service sums an answer's items this way, and the popup the pages of a paged action.
 */
export function sumProblems(problems: BulkProblem[]): BulkProblem[] {
  const summed = new Map<string, BulkProblem>();
  for (const problem of problems) {
    const key = `${problem.code}\n${problem.detail}`;
    const before = summed.get(key);
    summed.set(key, {
      ...problem,
      count: (before?.count ?? 0) + problem.count,
      profiles: [...(before?.profiles ?? []), ...problem.profiles].slice(0, NAMED_PER_PROBLEM),
      ids: [...(before?.ids ?? []), ...problem.ids].slice(0, NAMED_PER_PROBLEM),
    });
  }
  return [...summed.values()].sort((a, b) => b.count - a.count);
}

/** An answer's `unlisted`: how many failed profiles its items leave out, with a sentence saying so (none: absent). */
export function unlistedFailures(count: number): Pick<BulkResult, 'unlisted'> {
  if (count <= 0) return {};
  const detail = `${count.toLocaleString('en-US')} more failed profiles are not listed in items: each problem says how many met it and names the first ${NAMED_PER_PROBLEM}.`;
  return { unlisted: { count, detail } };
}
