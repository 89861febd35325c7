import { createRunQueue, type RunQueue } from '../automation/queue';
import { createRunEvents, type RunEvents } from '../automation/run-events';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/driver';
import type { Lifecycle } from '../lifecycle';
import type { Logger } from '../log';
import { CdpTokens } from './cdp-tokens';
import { createSessionManager, type SessionManager } from './manager';

export interface SessionLayer {
  sessions: SessionManager;
  /** Signs and checks the tokens of the sessions' `cdp_url`s. */
  cdpTokens: CdpTokens;
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
  const cdpTokens = new CdpTokens();
  const sessions = createSessionManager({ ...base, tokens: cdpTokens });
  const runEvents = createRunEvents();
  const automation = createRunQueue({ ...base, limits: base.config.limits, sessions, events: runEvents });
  base.lifecycle.onStart('sessions', () => sessions.reconcile());
  base.lifecycle.onStart('automation runs', () => automation.reconcile());
  // Shutdown hooks run last registered first: runs end before their browsers are stopped.
  base.lifecycle.onShutdown('sessions', () => sessions.stopAll('service_shutdown'));
  base.lifecycle.onShutdown('automation runs', () => automation.drain());
  return { sessions, cdpTokens, automation, runEvents };
}
