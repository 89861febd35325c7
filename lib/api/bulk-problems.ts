import type { BulkProblem } from './schemas/bulk';

/** Profiles named per problem of a bulk answer; the rest are counted. */
const NAMED_PER_PROBLEM = 5;

/**
 * Problems summed up: the same code and sentence said once, their counts added and the first few names kept, the
 * most met first. The service sums an answer's items this way, and the popup the pages of a paged action.
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
    });
  }
  return [...summed.values()].sort((a, b) => b.count - a.count);
}
