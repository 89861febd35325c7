import type { MiddlewareHandler } from 'hono';
import type { StreamSlots } from '../events/stream-slots';
import type { AppEnv } from './env';

/**
 * Takes the account's event-stream slot for `GET /v1/events` before the hourly limit counts the request, so that
 * a stream the plan's cap refuses (429) costs nothing, as no refused request does. The slot is given back at
 * once unless the stream opened; the route keeps it (`releaseStream`) for as long as it streams.
 */
export function takeStreamSlot(streams: StreamSlots): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const release = streams.take(c.get('account'));
    c.set('releaseStream', release);
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
    if (c.res.status !== 200) release();
  };
}
