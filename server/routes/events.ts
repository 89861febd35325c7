import { streamSSE } from 'hono/streaming';
import { followEvents, RESET, streamStart } from '../events/follow';
import { validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';

/** An event id as the stream gave it. */
export const EVENT_ID = /^\d{1,18}$/;

/** Browsers reconnect an EventSource after this long; Last-Event-ID makes the reconnection lose nothing. */
const RETRY_MS = 3000;

export const eventRoutes: Route[] = [
  route('streamEvents', async (c, _input, { db, publisher, config, lifecycle }) => {
    const account = c.get('account');
    const lastEventId = c.req.header('last-event-id')?.trim() || null;
    if (lastEventId !== null && !EVENT_ID.test(lastEventId)) {
      throw validationProblem(
        [{ path: 'Last-Event-ID', message: 'must be the id of an event of this stream' }],
        'The Last-Event-ID header must be the id of an event this stream sent (digits).',
      );
    }
    const release = c.get('releaseStream');
    // Before the stream answers (the slot's middleware gives the slot back if this throws).
    const start = await streamStart(db, account.id, lastEventId);
    return streamSSE(c, async (stream) => {
      const closed = new AbortController();
      stream.onAbort(() => closed.abort());
      try {
        await stream.write(`retry: ${RETRY_MS}\n\n`);
        await followEvents({
          db,
          publisher,
          reader: account,
          start,
          heartbeatMs: config.events.heartbeatMs,
          signal: AbortSignal.any([closed.signal, c.req.raw.signal, lifecycle.shutdownSignal]),
          send: (event) =>
            stream.writeSSE({
              event: event.type,
              data: JSON.stringify(event),
              ...(event === RESET ? {} : { id: (event as { id: string }).id }),
            }),
          heartbeat: () => stream.write(': heartbeat\n\n').then(() => undefined),
        });
      } finally {
        release();
      }
    });
  }),
];
