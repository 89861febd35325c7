import type { BulkItem, BulkProblem, BulkResult } from '../../lib/api/schemas/bulk';
import type { Logger } from '../core/log';
import type { BulkDone } from '../profiles/profile-bulk';
import { domainProblem } from './errors';
import { ProblemError } from './problem';

/** A bulk action's answer: each profile's outcome, its error answered as the single endpoint would answer it. */
export function bulkAnswer(action: string, done: BulkDone, log: Logger): BulkResult {
  const items: BulkItem[] = done.outcomes.map((outcome) => {
    const name = done.names?.get(outcome.id);
    const named = name === undefined ? {} : { name };
    if ('error' in outcome)
      return { id: outcome.id, ...named, ok: false, problem: itemProblem(outcome.error, log) };
    const { id, proxyId, sessionId, runId, cookies, waiting } = outcome;
    return {
      id,
      ...named,
      ok: true,
      ...(proxyId ? { proxy_id: proxyId } : {}),
      ...(sessionId ? { session_id: sessionId } : {}),
      ...(runId ? { run_id: runId } : {}),
      ...(cookies ? { cookies } : {}),
      ...(waiting ? { waiting } : {}),
    };
  });
  const succeeded = items.filter((item) => item.ok).length;
  const waiting = items.filter((item) => item.waiting).length;
  return {
    action,
    selected: done.selected,
    succeeded,
    failed: items.length - succeeded,
    ...(action === 'start' ? { waiting } : {}),
    ...(done.batchId ? { batch_id: done.batchId } : {}),
    ...(done.proxiesCreated === undefined ? {} : { proxies_created: done.proxiesCreated }),
    problems: problemsOf(items),
    items,
  };
}

/** Profiles named per problem in its summary; the rest are counted. */
const NAMED_PER_PROBLEM = 5;

/** The failed items summed up by problem: each code and sentence once, with its count, the most met first. */
function problemsOf(items: BulkItem[]): BulkProblem[] {
  const problems = new Map<string, BulkProblem>();
  for (const { id, name, problem } of items) {
    if (!problem) continue;
    const key = `${problem.code}\n${problem.detail}`;
    const summed = problems.get(key) ?? { ...problem, count: 0, profiles: [] };
    summed.count += 1;
    if (summed.profiles.length < NAMED_PER_PROBLEM) summed.profiles.push(name ?? id);
    problems.set(key, summed);
  }
  return [...problems.values()].sort((a, b) => b.count - a.count);
}

function itemProblem(error: unknown, log: Logger): { status: number; code: string; detail: string } {
  const problem = error instanceof ProblemError ? error.problem : domainProblem(error);
  if (problem) return { status: problem.status, code: problem.code, detail: problem.detail };
  log.error('a bulk action failed on one profile', { error });
  return {
    status: 500,
    code: 'internal',
    detail: 'Something went wrong in the service with this profile; it has been logged.',
  };
}
