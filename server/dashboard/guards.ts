import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import { ProblemError } from '../http/problem';
import { publicScheme } from './sign-in-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that did not come from the dashboard's own pages (CSRF): its `Origin` must
 * be this service's own (the scheme and the Host the browser addressed). Browsers send Origin on every POST,
 * PUT and DELETE made by script; a request without one is refused too.
 */
export function sameOriginOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const host = c.req.header('host');
    if (!origin || !host || origin !== `${publicScheme(c)}://${host}`) {
      throw new ProblemError({
        status: 403,
        code: 'forbidden',
        detail:
          'This request did not come from the dashboard’s own pages, so it was refused. Open the dashboard and try there.',
      });
    }
    return next();
  };
}

/** The dashboard's endpoints work with its sign-in cookie only: an API key is refused, never taken as a sign-in. */
export function noApiKeys(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.header('authorization') === undefined) return next();
    throw new ProblemError({
      status: 401,
      code: 'unauthorized',
      detail:
        'The dashboard’s endpoints do not take API keys: sign in on the dashboard. API keys are for /v1.',
    });
  };
}
