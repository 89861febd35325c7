import { sumProblems, unlistedFailures } from '../../lib/api/bulk-problems';
import type { BulkItem, BulkResult } from '../../lib/api/schemas/bulk';
import type { Logger } from '../core/log';
import type { BulkDone } from '../profiles/profile-bulk';
import { domainProblem } from './errors';
import { ProblemError } from './problem';

/**
 * A bulk action's answer: each profile's outcome, its error answered as the single endpoint would answer it, each
 * problem said once; failures past the first few of their problem are counted there, not listed.
 */
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
  const problems = sumProblems(
    items.flatMap(({ id, name, problem }) =>
      problem ? [{ ...problem, count: 1, profiles: [name ?? id], ids: [id] }] : [],
    ),
  );
  const named = new Set(problems.flatMap(({ ids }) => ids));
  const listed = items.filter((item) => item.ok || named.has(item.id));
  return {
    action,
    selected: done.selected,
    succeeded,
    failed: items.length - succeeded,
    ...(action === 'start' ? { waiting } : {}),
    ...(done.batchId ? { batch_id: done.batchId } : {}),
    ...(done.proxiesCreated === undefined ? {} : { proxies_created: done.proxiesCreated }),
    problems,
    items: listed,
    ...unlistedFailures(items.length - listed.length),
  };
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
