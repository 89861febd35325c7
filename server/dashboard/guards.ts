import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import { ProblemError } from '../http/problem';
import type { ServedNames } from '../http/served-names';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that did not come from the dashboard's own pages (CSRF): its `Origin` must
 * be one of this service's own origins (served-names.ts), not merely the Host the request names, which a
 * rebound domain's page chooses, and the one of the Host it was sent to. Browsers send Origin on every POST, PUT and DELETE made by script; a request
 * without one is refused too.
 */
export function sameOriginOnly(names: ServedNames, configuredPort: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const port = c.env?.incoming?.socket?.localPort ?? configuredPort;
    if (!names.allowsOrigin(c.req.header('origin'), c.req.header('host'), port)) {
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

/** Answers hold keys and account details: no cache keeps them. */
export function noStore(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  };
}
