import { createRunQueue, type RunQueue } from '../automation/queue';
import { createRunEvents, type RunEvents } from '../automation/run-events';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/driver';
import type { Lifecycle } from '../lifecycle';
import type { Logger } from '../log';
import { createSessionManager, type SessionManager } from './manager';

export interface SessionLayer {
  sessions: SessionManager;
  automation: RunQueue;
  runEvents: RunEvents;
}

/** Browsers and the scripts that drive them, hooked into the service's start-up and shutdown. */
export function createSessionLayer(base: {
  db: Database;
  config: Config;
  log: Logger;
  clock: Clock;
  lifecycle: Lifecycle;
}): SessionLayer {
  const sessions = createSessionManager(base);
  const runEvents = createRunEvents();
  const automation = createRunQueue({ ...base, sessions, events: runEvents });
  base.lifecycle.onStart('sessions', () => sessions.reconcile());
  base.lifecycle.onStart('automation runs', () => automation.reconcile());
  // Shutdown hooks run last registered first: runs end before their browsers are stopped.
  base.lifecycle.onShutdown('sessions', () => sessions.stopAll('service_shutdown'));
  base.lifecycle.onShutdown('automation runs', () => automation.drain());
  return { sessions, automation, runEvents };
}
