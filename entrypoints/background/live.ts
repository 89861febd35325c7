import { browser } from 'wxt/browser';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { ServiceEvent } from '../../lib/api/schemas/events';
import type { Session } from '../../lib/api/schemas/sessions';
import { EVENTS_PORT } from '../../lib/messaging/protocol';
import { cachedSessions, connection, watchedRuns } from '../../lib/storage';
import { forgetProfile } from './lists';
import type { Sessions } from './sessions';
import type { EventStream } from './stream';
import type { Watcher } from './watcher';

/** Applies one event of the service's stream to what the extension keeps. */
export function applyEvent(event: ServiceEvent, sessions: Sessions, watcher: Watcher): Promise<void> {
  const [kind] = event.type.split('.');
  if (kind === 'session') return sessions.apply(event.data as unknown as Session);
  if (kind === 'run') return watcher.apply(event.data as unknown as AutomationRun);
  if (event.type === 'profile.deleted') return forgetProfile(String(event.data.id));
  return Promise.resolve();
}

/**
 * Holds the event stream while it is needed: while a popup is open (it connects a port), while runs are
 * followed, and while sessions run; opens it again with a new key or address.
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
  connection.watch(() => quietly(stream.restart()));
  void cachedSessions.getValue().then(onSessions);
  void watchedRuns.getValue().then(onRuns);
}
