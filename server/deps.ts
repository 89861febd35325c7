import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db/driver';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './log';
import type { SessionLayer } from './sessions/layer';

/** Everything the HTTP app and its route groups are built from. */
export interface AppDeps extends SessionLayer {
  db: Database;
  config: Config;
  log: Logger;
  clock: Clock;
  lifecycle: Lifecycle;
}
