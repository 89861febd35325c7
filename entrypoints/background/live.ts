import { browser } from 'wxt/browser';
import type { ServiceEvent } from '../../lib/api/schemas/events';
import { EVENTS_PORT } from '../../lib/messaging/protocol';
import { cachedSessions, connection, proxyCheckJob, watchedRuns } from '../../lib/storage';
import type { Inbox } from './inbox';
import { followProxy, forgetProfile } from './lists';
import type { Sessions } from './sessions';
import type { EventStream } from './stream';
import type { Watcher } from './watcher';

/** Whether the event's type starts with `prefix` (`session.`, `run.`…): its type then names its data. */
function isOf<P extends string>(
  event: ServiceEvent,
  prefix: P,
): event is Extract<ServiceEvent, { type: `${P}${string}` }> {
  return event.type.startsWith(prefix);
}

/** Applies one event of the service's stream to what the extension keeps. */
export function applyEvent(
  event: ServiceEvent,
  { sessions, watcher, inbox }: { sessions: Sessions; watcher: Watcher; inbox: Inbox },
): Promise<void> {
  if (isOf(event, 'session.help_')) return inbox.apply(event.data);
  if (isOf(event, 'session.')) return sessions.apply(event.data);
  if (isOf(event, 'run.')) return watcher.apply(event.data);
  if (event.type === 'profile.deleted') return forgetProfile(event.data.id);
  if (event.type === 'proxies.checking') return proxyCheckJob.setValue(event.data);
  if (event.type === 'proxy.deleted') followProxy(event.data.id, null);
  else if (isOf(event, 'proxy.'))
    followProxy(event.data.id, { proxy: event.data, made: event.type === 'proxy.created' });
  return Promise.resolve();
}

/**
 * Holds the event stream while it is needed: while a key is set (a request for help must be heard at once), while
 * a popup is open (it connects a port), while runs are followed, and while sessions run; opens it again with a
 * new key or address.
 */
export function holdStreamWhileNeeded(stream: EventStream): void {
  const quietly = (task: Promise<void>) => task.catch(() => undefined);
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== EVENTS_PORT) return;
    quietly(stream.hold('popup'));
    port.onDisconnect.addListener(() => stream.release('popup'));
  });
  const follow = (holder: string, needed: boolean) =>
    needed ? quietly(stream.hold(holder)) : stream.release(holder);
  const onSessions = (cached: { data: unknown[] } | null) =>
    follow('sessions', (cached?.data.length ?? 0) > 0);
  const onRuns = (runs: { phase: string }[]) =>
    follow(
      'runs',
      runs.some((entry) => entry.phase === 'watching'),
    );
  cachedSessions.watch(onSessions);
  watchedRuns.watch(onRuns);
  const onConnection = (saved: { apiKey: string | null }) => follow('inbox', saved.apiKey !== null);
  connection.watch((saved) => {
    onConnection(saved);
    quietly(stream.restart());
  });
  void connection.getValue().then(onConnection);
  void cachedSessions.getValue().then(onSessions);
  void watchedRuns.getValue().then(onRuns);
}
