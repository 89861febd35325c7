import type { ErrorHandler } from 'hono';
import type { Logger } from '../log';
import type { AppEnv } from './env';
import { ProblemError, problemResponse } from './problem';

/** Answers ProblemErrors as problem details; anything else is logged and answered 500 without internals. */
export function handleErrors(log: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ProblemError) return problemResponse(error.problem);
    const requestId = c.get('requestId');
    log.error('request failed', { request_id: requestId, method: c.req.method, path: c.req.path, error });
    return problemResponse({
      status: 500,
      code: 'internal',
      detail: `Something went wrong in the service (reference ${requestId}); it has been logged.`,
    });
  };
}
