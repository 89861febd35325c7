import type { ErrorHandler } from 'hono';
import { Conflict, InvalidInput, NotFound, PlanLimit, ProxyInUse, Unavailable } from '../core/domain-errors';
import type { Logger } from '../core/log';
import { EgressRefused } from '../network/egress-lookup';
import type { AppEnv } from './env';
import { loggablePath } from './loggable-path';
import { ProblemError, type ProblemInit, problemResponse } from './problem';

/**
 * Answers ProblemErrors and domain errors as problem details; anything else is logged and answered 500
 * without internals.
 */
export function handleErrors(log: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ProblemError) return problemResponse(error.problem);
    const problem = domainProblem(error);
    if (problem) return problemResponse(problem);
    const requestId = c.get('requestId');
    log.error('request failed', {
      request_id: requestId,
      method: c.req.method,
      path: loggablePath(c.req.path),
      error,
    });
    return problemResponse({
      status: 500,
      code: 'internal',
      detail: `Something went wrong in the service (reference ${requestId}); it has been logged.`,
    });
  };
}

/** How each domain error is answered over HTTP. */
export function domainProblem(error: unknown): ProblemInit | null {
  const withSession = (sessionId: string | null | undefined) => (sessionId ? { session_id: sessionId } : {});
  if (error instanceof NotFound) return { status: 404, code: 'not_found', detail: error.message };
  if (error instanceof Conflict)
    return { status: 409, code: error.code, detail: error.message, extensions: withSession(error.sessionId) };
  if (error instanceof ProxyInUse)
    return {
      status: 409,
      code: 'proxy_in_use',
      detail: error.message,
      extensions: { profile_ids: error.profileIds },
    };
  if (error instanceof InvalidInput)
    return {
      status: 422,
      code: 'validation_failed',
      detail: error.message,
      errors: [{ path: error.field, message: error.problem }],
    };
  if (error instanceof PlanLimit) return { status: 429, code: error.code, detail: error.message };
  if (error instanceof EgressRefused)
    return { status: 422, code: 'validation_failed', detail: error.message };
  if (error instanceof Unavailable) {
    const { retryAfterSeconds, sessionId } = error.options;
    return {
      status: 503,
      code: error.code,
      detail: error.message,
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
      extensions: withSession(sessionId),
    };
  }
  return null;
}
