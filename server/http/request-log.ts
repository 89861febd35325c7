import type { MiddlewareHandler } from 'hono';
import { randomBase62 } from '../core/ids';
import type { Logger } from '../core/log';
import { clientAddress } from './client-address';
import type { AppEnv } from './env';
import { loggablePath } from './loggable-path';

/** One log line per request, without headers (so never the Authorization header) nor a `cdp_url`'s or a live view's token. */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set('requestId', `req_${randomBase62(12)}`);
    await next();
    log.info('request', {
      request_id: c.get('requestId'),
      method: c.req.method,
      path: loggablePath(c.req.path),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      account_id: c.get('account')?.id,
      client: clientAddress(c),
    });
  };
}
