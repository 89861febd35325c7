import type { KeyCache } from '../accounts/key-cache';
import type { KeyUses } from '../accounts/key-uses';
import type { UsageTally } from '../accounts/usage-tally';
import type { RunScheduler } from '../automation/scheduler';
import type { Membership } from '../cluster/membership';
import type { ProfileCookies } from '../cookies/profile-cookies';
import type { Activity } from '../core/activity';
import type { Clock } from '../core/clock';
import type { Config } from '../core/config';
import type { Job, Lifecycle } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { EventLog } from '../events/event-log';
import type { Publisher } from '../events/publisher';
import type { StreamSlots } from '../events/stream-slots';
import type { Handoff } from '../handoff/handoff';
import type { LiveTokens } from '../live/live-tokens';
import type { SessionGlance } from '../live/session-glance';
import type { AgentPages } from '../pages/agent-pages';
import type { ProxyChecks } from '../proxies/check-all';
import type { RoomQueue } from '../queue/room-queue';
import type { CdpTokens } from '../sessions/cdp-tokens';
import type { SessionManager } from '../sessions/manager';
import type { RequestTurns } from './request-turns';
import type { Tracing } from './tracing';

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
  /** Signs and checks the sessions' live view addresses. */
  liveTokens: LiveTokens;
  /** The page tools of MCP agents, on the sessions' browsers. */
  pages: AgentPages;
  /** What each session this process runs is doing: its active tab's page and a thumbnail of it. */
  glance: SessionGlance;
  /** Automation runs, queued per profile. */
  automation: RunScheduler;
  /** The line for browsers: runs and session starts that wait for room. */
  queue: RoomQueue;
  /** Check all: jobs that check every saved proxy of an account. */
  proxyChecks: ProxyChecks;
  /** A profile's cookies, in its browser whether or not its session runs. */
  cookies: ProfileCookies;
  /** The accounts of keys seen recently. */
  keyCache: KeyCache;
  /** When each key was last used, written at most once a minute. */
  keyUses: KeyUses;
  usageTally: UsageTally;
  /** Wakes event streams, long polls and the webhook sender once a change is committed. */
  publisher: Publisher;
  /** Records each change of a session, run, profile or proxy as an event of its account. */
  events: EventLog;
  /** Requests for a person, made by agents and runs, answered by people. */
  handoff: Handoff;
  /** Event streams open per account (SSE and WebSocket), within the plan's cap. */
  streams: StreamSlots;
  /** Which accounts use this process now: heavy work gives way while others do. */
  activity: Activity;
  /** Each account's turns at being served (request-turns.ts). */
  turns: RequestTurns;
  nodeId: string;
  /** What the other nodes' requests to this one carry. */
  nodeAuthKey: string;
  membership: Membership;
  /** The publisher's relay through NOTIFY, on PostgreSQL. */
  relay: Job | null;
  /** Request traces over OTLP, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing: Tracing | null;
}
