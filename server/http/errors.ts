import type { ErrorHandler } from 'hono';
import { isDomainError } from '../core/domain-errors';
import type { Logger } from '../core/log';

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

/** How a domain error is answered over HTTP: as the problem it carries. */
export function domainProblem(error: unknown): ProblemInit | null {
  if (!isDomainError(error)) return null;
  const { status, code, detail, extensions, errors, retryAfterSeconds } = error.problem;
  return {
    status,
    code,
    detail,
    ...(extensions && Object.keys(extensions).length ? { extensions } : {}),
    ...(errors ? { errors } : {}),
    headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
  };
}
