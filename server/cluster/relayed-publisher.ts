import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { LocalPublisher, Publisher } from '../events/publisher';

/** NOTIFY channel carrying `<node id> <topic>` for each publish, to the other nodes. */
export const TOPICS_CHANNEL = 'pp_topics';

/** While notifications may be missed (the listening connection is lost), waiters re-read this often. */
const FALLBACK_POLL_MS = 1000;

/**
 * The publisher of a node among others on one PostgreSQL: each publish is also sent through NOTIFY, and what the
 * other nodes publish wakes this node's listeners, within milliseconds. When the listening connection is lost,
 * every listener is woken (they re-read the database) and waits poll instead, until it is back.
 * On the embedded database there is one process: the local publisher alone.
 */
export function relayThroughDatabase(
  local: LocalPublisher,
  deps: { db: Database; nodeId: string; log: Logger },
): { publisher: Publisher; relay: Job | null } {
  const { db, nodeId, log } = deps;
  if (db.kind !== 'postgres') return { publisher: local, relay: null };
  let lost = false;
  let stopListening: () => Promise<void> = async () => {};
  const listen = async () => {
    stopListening = await db.listen(TOPICS_CHANNEL, {
      onNotify(payload) {
        const space = payload.indexOf(' ');
        if (payload.slice(0, space) !== nodeId) local.publish(payload.slice(space + 1));
      },
      onLost() {
        lost = true;
        local.wakeAll();
      },
      onRestored() {
        lost = false;
        local.wakeAll();
      },
    });
  };
  const publisher: Publisher = {
    publish(topic) {
      local.publish(topic);
      db.query('select pg_notify($1, $2)', [TOPICS_CHANNEL, `${nodeId} ${topic}`]).catch((error: unknown) =>
        log.warn('could not tell the other nodes of a change', { topic, error }),
      );
    },
    subscribe: (topic, listener) => local.subscribe(topic, listener),
    watch(topic) {
      const watch = local.watch(topic);
      return {
        changed: (ms, signal) => watch.changed(lost ? Math.min(ms, FALLBACK_POLL_MS) : ms, signal),
        close: watch.close,
      };
    },
  };
  return { publisher, relay: { name: 'publisher relay', start: listen, stop: () => stopListening() } };
}
