import { createHmac, randomBytes } from 'node:crypto';
import { KeyCache } from '../accounts/key-cache';
import { createKeyUses } from '../accounts/key-uses';
import { SESSION_CAPS } from '../accounts/plans';
import { createUsageTally } from '../accounts/usage-tally';
import { createRunScheduler } from '../automation/scheduler';
import { joinCluster } from '../cluster/membership';
import { createPeers, nodeAuthKey } from '../cluster/peers';
import { relayThroughDatabase } from '../cluster/relayed-publisher';
import { createProfileCookies } from '../cookies/profile-cookies';
import { Activity } from '../core/activity';
import { newId } from '../core/ids';
import { createEventLog } from '../events/event-log';
import { createPublisher } from '../events/publisher';
import { StreamSlots } from '../events/stream-slots';
import { createHandoff } from '../handoff/handoff';
import type { AppDeps, BaseDeps } from '../http/deps';
import { RequestTurns } from '../http/request-turns';
import { tracingTo } from '../http/tracing';
import { LiveTokens } from '../live/live-tokens';
import { withLiveViewUrls } from '../live/live-view-urls';
import { createSessionGlance } from '../live/session-glance';
import { createAgentPages } from '../pages/agent-pages';
import { createProxyChecks } from '../proxies/check-all';
import { createRoomQueue } from '../queue/room-queue';
import { serveStartWith } from '../queue/serve-start';
import { CdpTokens } from '../sessions/cdp-tokens';
import { createSessionManager } from '../sessions/manager';

/** The one place the service's parts are put together; their background work is listed in jobs.ts. */
export function wireService(base: BaseDeps): AppDeps {
  const node = base.node ?? { id: newId('nod'), secret: randomBytes(32) };
  const nodeId = node.id;
  const cdpTokens = new CdpTokens(createHmac('sha256', node.secret).update('cdp tokens').digest());
  const liveTokens = new LiveTokens(createHmac('sha256', node.secret).update('live view tokens').digest());
  const authKey = nodeAuthKey(node.secret);
  const keyCache = new KeyCache();
  const { publisher, relay } = relayThroughDatabase(createPublisher(), { ...base, nodeId });
  const events = createEventLog({ ...base, publisher });
  const handoff = createHandoff({ ...base, events, publisher });
  const membership = joinCluster({
    ...base,
    nodeId,
    url: base.config.nodeUrl,
    capacity: base.config.limits.maxBrowsers,
    lostAfterMs: base.config.nodeLostAfterMs,
    // Runs first: whoever sees a lost session stopped must find its run already failed, not still running.
    sweepOrphans: async () => {
      await automation.sweepOrphans();
      await sessions.sweepOrphans();
      await queue.requeueStarts(null);
    },
    endLostBrowsers: () => sessions.endLostBrowsers(),
  });
  const cluster = {
    nodeId,
    draining: () => membership.draining(),
    peers: createPeers({
      db: base.db,
      nodeId,
      authKey,
      log: base.log,
      lostAfterMs: base.config.nodeLostAfterMs,
    }),
  };
  const sessions = withLiveViewUrls(
    createSessionManager({
      ...base,
      events,
      tokens: cdpTokens,
      cluster,
      onTabClosed: (sessionId, tabId) =>
        void handoff.withdrawTab(sessionId, tabId).catch((error: unknown) =>
          base.log.warn("a closed tab's help request was not withdrawn", {
            session_id: sessionId,
            error: String(error),
          }),
        ),
    }),
    liveTokens,
  );
  const automation = createRunScheduler({
    ...base,
    limits: base.config.limits,
    dataDir: base.config.dataDir,
    sessions,
    events,
    handoff,
    cluster,
  });
  const queue = createRoomQueue({
    ...base,
    nodeId,
    maxBrowsers: base.config.limits.maxBrowsers,
    roomHere: sessions.roomHere,
    caps: { ...SESSION_CAPS, enterprise: base.config.limits.enterpriseMaxSessions },
    serveRun: automation.serveRun,
    serveStart: serveStartWith(sessions),
    failDeleted: automation.failDeleted,
  });
  sessions.onRoom(() => void queue.dispatch());
  const pages = createAgentPages({
    ...base,
    sessions,
    peers: cluster.peers,
    nodeId,
    limits: base.config.limits,
    dataDir: base.config.dataDir,
  });
  const keyUses = createKeyUses(base.db, base.log);
  const usageTally = createUsageTally(base.db);
  const streams = new StreamSlots();
  const turns = new RequestTurns();
  return {
    ...base,
    sessions,
    cdpTokens,
    liveTokens,
    automation,
    queue,
    pages,
    glance: createSessionGlance(sessions, cluster),
    proxyChecks: createProxyChecks({
      ...base,
      events,
      checkUrl: base.config.proxyCheckUrl,
      egress: base.config.egress,
    }),
    cookies: createProfileCookies({ db: base.db, sessions, peers: cluster.peers }),
    keyCache,
    keyUses,
    usageTally,
    publisher,
    events,
    handoff,
    streams,
    activity: new Activity((key) => turns.othersActive(key)),
    turns,
    nodeId,
    nodeAuthKey: authKey,
    membership,
    relay,
    tracing: tracingTo(base.config.otlpEndpoint, base.config.version),
  };
}
