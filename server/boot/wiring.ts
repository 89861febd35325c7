import { createHmac, randomBytes } from 'node:crypto';
import { KeyCache } from '../accounts/key-cache';
import { createKeyUses, type KeyUses } from '../accounts/key-uses';
import { createRunQueue, type RunQueue } from '../automation/queue';
import { createRunEvents, type RunEvents } from '../automation/run-events';
import { joinCluster, type Membership } from '../cluster/membership';
import { createPeers, nodeAuthKey } from '../cluster/peers';
import { relayThroughDatabase } from '../cluster/relayed-publisher';
import { createProfileCookies, type ProfileCookies } from '../cookies/profile-cookies';
import type { Clock } from '../core/clock';
import type { Config } from '../core/config';
import { newId } from '../core/ids';
import type { Job, Lifecycle } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { createEventLog, type EventLog } from '../events/event-log';
import { createPublisher, type Publisher } from '../events/publisher';
import { StreamSlots } from '../events/stream-slots';
import { CdpTokens } from '../sessions/cdp-tokens';
import { createSessionManager, type SessionManager } from '../sessions/manager';

/** What the process provides: the database, settings, logs, time, and start-up and shutdown hooks. */
export interface BaseDeps {
  db: Database;
  config: Config;
  log: Logger;
  clock: Clock;
  lifecycle: Lifecycle;
  /** This process as a node of the cluster: its id and the secret the nodes share; a lone node when not given. */
  node?: { id: string; secret: Buffer };
}

/** Everything the HTTP app and its route groups are built from. */
export interface AppDeps extends BaseDeps {
  /** Browsers per profile. */
  sessions: SessionManager;
  /** Signs and checks the tokens of the sessions' `cdp_url`s. */
  cdpTokens: CdpTokens;
  /** Automation runs, queued per profile. */
  automation: RunQueue;
  /** A profile's cookies, in its browser whether or not its session runs. */
  cookies: ProfileCookies;
  /** Wakes long polls when a run changes. */
  runEvents: RunEvents;
  /** The accounts of keys seen recently. */
  keyCache: KeyCache;
  /** When each key was last used, written at most once a minute. */
  keyUses: KeyUses;
  /** Wakes event streams, long polls and the webhook sender once a change is committed. */
  publisher: Publisher;
  /** Records each change of a session, run, profile or proxy as an event of its account. */
  events: EventLog;
  /** Event streams open per account (SSE and WebSocket), within the plan's cap. */
  streams: StreamSlots;
  nodeId: string;
  /** What the other nodes' requests to this one carry. */
  nodeAuthKey: string;
  membership: Membership;
  /** The publisher's relay through NOTIFY, on PostgreSQL. */
  relay: Job | null;
}

/** The one place the service's parts are put together; their background work is listed in jobs.ts. */
export function wireService(base: BaseDeps): AppDeps {
  const node = base.node ?? { id: newId('nod'), secret: randomBytes(32) };
  const nodeId = node.id;
  const cdpTokens = new CdpTokens(createHmac('sha256', node.secret).update('cdp tokens').digest());
  const authKey = nodeAuthKey(node.secret);
  const keyCache = new KeyCache();
  const { publisher, relay } = relayThroughDatabase(createPublisher(), { ...base, nodeId });
  const events = createEventLog({ ...base, publisher });
  const membership = joinCluster({
    ...base,
    nodeId,
    url: base.config.nodeUrl,
    capacity: base.config.limits.maxBrowsers,
    // Runs first: whoever sees a lost session stopped must find its run already failed, not still running.
    sweepOrphans: async () => {
      await automation.sweepOrphans();
      await sessions.sweepOrphans();
    },
  });
  const cluster = {
    nodeId,
    draining: () => membership.draining(),
    peers: createPeers({ db: base.db, nodeId, authKey, log: base.log }),
  };
  const sessions = createSessionManager({ ...base, events, tokens: cdpTokens, cluster });
  const runEvents = createRunEvents(publisher);
  const automation = createRunQueue({
    ...base,
    limits: base.config.limits,
    dataDir: base.config.dataDir,
    sessions,
    runEvents,
    events,
    cluster,
  });
  const keyUses = createKeyUses(base.db, base.log);
  const streams = new StreamSlots();
  return {
    ...base,
    sessions,
    cdpTokens,
    automation,
    cookies: createProfileCookies({ db: base.db, sessions, peers: cluster.peers }),
    runEvents,
    keyCache,
    keyUses,
    publisher,
    events,
    streams,
    nodeId,
    nodeAuthKey: authKey,
    membership,
    relay,
  };
}
