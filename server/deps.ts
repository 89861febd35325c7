import { createHmac, randomBytes } from 'node:crypto';
import { KeyCache } from './accounts/key-cache';
import { createKeyUses, type KeyUses } from './accounts/key-uses';
import { createRunQueue, type RunQueue } from './automation/queue';
import { createRunEvents, type RunEvents } from './automation/run-events';
import type { Clock } from './clock';
import { joinCluster, type Membership } from './cluster/membership';
import { createPeers, nodeAuthKey } from './cluster/peers';
import { relayThroughDatabase } from './cluster/relayed-publisher';
import { pickUpRunsQueuedHere } from './cluster/run-pickup';
import type { Config } from './config';
import { createProfileCookies, type ProfileCookies } from './cookies/profile-cookies';
import type { Database } from './db/driver';
import { keepStatisticsCurrent } from './db/statistics';
import { createEventLog, type EventLog } from './events/event-log';
import { createPublisher, type Publisher } from './events/publisher';
import { StreamSlots } from './events/stream-slots';
import { newId } from './ids';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './log';
import { type AgentPages, createAgentPages } from './mcp/agent-pages';
import { CdpTokens } from './sessions/cdp-tokens';
import { createSessionManager, type SessionManager } from './sessions/manager';
import { startWebhookSender } from './webhooks/sender';

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
  /** The page tools of MCP agents, on the sessions' browsers. */
  pages: AgentPages;
}

/** The one place the service's parts are put together and hooked into its start-up and shutdown. */
export function wireService(base: BaseDeps): AppDeps {
  const node = base.node ?? { id: newId('nod'), secret: randomBytes(32) };
  const nodeId = node.id;
  const cdpTokens = new CdpTokens(createHmac('sha256', node.secret).update('cdp tokens').digest());
  const authKey = nodeAuthKey(node.secret);
  const keyCache = new KeyCache();
  let stopHearingKeys: () => Promise<void> = async () => {};
  base.lifecycle.onStart('key cache', async () => {
    stopHearingKeys = await keyCache.listen(base.db);
  });
  keepStatisticsCurrent(base.db, base.lifecycle, base.log);
  const publisher = relayThroughDatabase(createPublisher(), { ...base, nodeId });
  const events = createEventLog({ ...base, publisher });
  // Joined before the sessions' shutdown hook is registered, so that the node leaves after its sessions stop.
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
  const pages = createAgentPages({
    ...base,
    sessions,
    peers: cluster.peers,
    nodeId,
    limits: base.config.limits,
  });
  pickUpRunsQueuedHere({ ...base, nodeId, automation });
  base.lifecycle.onStart('sessions', () => sessions.reconcile());
  base.lifecycle.onStart('automation runs', () => automation.reconcile());
  // Shutdown hooks run last registered first: runs end before their browsers are stopped.
  base.lifecycle.onShutdown('sessions', () => sessions.stopAll('service_shutdown'));
  base.lifecycle.onShutdown('automation runs', () => automation.drain());
  base.lifecycle.onShutdown('agent pages', () => pages.releaseAll());
  base.lifecycle.onShutdown('key cache', () => stopHearingKeys());
  const keyUses = createKeyUses(base.db, base.log);
  const streams = new StreamSlots();
  startWebhookSender({ ...base, publisher, settings: base.config.webhooks });
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
    pages,
  };
}
