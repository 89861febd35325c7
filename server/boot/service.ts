import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { type AdminChannel, listenAdmin } from '../admin/channel';
import { KeysCommand, runKeysCommand } from '../admin/commands';
import { nodeIdOf } from '../cluster/node-id';
import { systemClock } from '../core/clock';
import type { Config } from '../core/config';
import { adminSocketPath } from '../core/data-dir';
import { createLifecycle } from '../core/lifecycle';
import { acquireDataDirLock, DataDirBusyError, type DataDirLock } from '../core/lock';
import type { Logger } from '../core/log';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import { answerClientErrors, requireHost } from '../http/client-errors';
import type { AppEnv } from '../http/env';
import { refuseForeignHosts, ServedNames } from '../http/served-names';
import { serveUpgrades } from '../http/upgrades';
import { validate } from '../http/validate';
import { ViewerBudget } from '../http/viewer-budget';
import { countViewOpening } from '../live/live-sessions';
import { cdpEndpoint } from '../routes/cdp-endpoint';
import { eventSocket } from '../routes/events-socket';
import { liveSocket } from '../routes/live-socket';
import { ensureBootstrapAccount } from '../store/bootstrap-account';
import { clusterSecret, peerOfSession } from '../store/nodes';
import { createApp } from './app';
import { backgroundJobs, scheduleJobs } from './jobs';
import { wireService } from './wiring';

export interface RunningService {
  url: string;
  port: number;
  /** Stops accepting, runs the shutdown hooks, closes the database and releases the data dir. */
  stop(): Promise<void>;
}

const DRAIN_MS = 10_000;

/** Takes the data dir, migrates the database, runs the start hooks, then serves HTTP and the admin socket. */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const lock = await acquireServiceLock(config.dataDir);
  const db = await openDatabase(config).catch((error: unknown) => {
    lock.release();
    throw error;
  });
  const lifecycle = createLifecycle(log);
  let admin: AdminChannel | undefined;
  let server: ServerType | undefined;
  const closeAll = async () => {
    await admin?.close();
    await db.close();
    lock.release();
  };
  try {
    const applied = await migrate(db, undefined, () =>
      log.info('another node is migrating the database; waiting for it to finish'),
    );
    if (applied.length > 0) log.info('database migrated', { versions: applied, kind: db.kind });
    if (config.bootstrapKey !== null) {
      const outcome = await ensureBootstrapAccount(db, systemClock, config.bootstrapKey);
      log.info(outcome === 'made' ? 'bootstrap account made' : 'bootstrap account already there');
    }
    const node = { id: nodeIdOf(config.dataDir), secret: await clusterSecret(db, randomBytes(32)) };
    const base = { db, config, log, clock: systemClock, lifecycle, node };
    const deps = wireService(base);
    const app = createApp(deps);
    scheduleJobs(backgroundJobs(deps), lifecycle);
    await lifecycle.runStart();
    admin = await listenAdmin(
      adminSocketPath(config.dataDir),
      (request) => runKeysCommand(db, systemClock, validate(KeysCommand, request, 'body')),
      log,
    );
    const names = new ServedNames(config);
    const listening = await listen(app, config, names, log);
    server = listening.server;
    const url = `http://${formatHost(config.host)}:${listening.port}`;
    const devtools = cdpEndpoint({
      tokens: deps.cdpTokens,
      devtoolsOf: (sessionId) => deps.sessions.devtoolsOf(sessionId),
      peerOf: async (sessionId) => (await peerOfSession(db, sessionId, node.id))?.url ?? null,
      log,
    });
    const live = liveSocket({
      db,
      sessions: deps.sessions,
      handoff: deps.handoff,
      publisher: deps.publisher,
      tokens: deps.liveTokens,
      devtoolsOf: (sessionId) => deps.sessions.devtoolsOf(sessionId),
      peerOf: async (sessionId) => (await peerOfSession(db, sessionId, node.id))?.url ?? null,
      countOpening: (sessionId) => countViewOpening(db, systemClock, sessionId),
      viewers: new ViewerBudget(),
      trustProxy: config.trustProxy,
      log,
    });
    const sockets: typeof devtools = (request, socket, head, path) =>
      (path.startsWith('/live/') ? live : devtools)(request, socket, head, path);
    serveUpgrades(listening.server as Server, names, { '/v1/events': eventSocket(app) }, sockets);
    const ownOrigin = `http://${formatHost(reachableHost(config.host))}:${listening.port}`;
    deps.sessions.listeningAt(ownOrigin);
    await deps.membership.listeningAt(ownOrigin);
    log.info('listening', { url, port: listening.port, data_dir: config.dataDir, database: db.kind });
    return {
      url,
      port: listening.port,
      async stop() {
        // Draining: unready, refusing new sessions (503) while it saves and stops its own; then it stops listening.
        log.info('shutting down');
        await lifecycle.runShutdown();
        await closeServer(listening.server);
        await closeAll();
        log.info('stopped');
      },
    };
  } catch (error) {
    if (server) await closeServer(server);
    await closeAll();
    throw error;
  }
}

// A keys command holds the lock for a moment while it runs on a stopped service: wait for it.
async function acquireServiceLock(dataDir: string): Promise<DataDirLock> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return acquireDataDirLock(dataDir, 'service');
    } catch (error) {
      if (!(error instanceof DataDirBusyError) || error.holder.role !== 'cli' || Date.now() > deadline)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Serves the app; requests Node's parser refuses, HTTP/1.1 without Host and requests for a name the service is
 * not served as get problem details too.
 */
function listen(
  app: Hono<AppEnv>,
  config: Config,
  names: ServedNames,
  log: Logger,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: config.port,
        hostname: config.host,
        serverOptions: { requireHostHeader: false },
        createServer: ((options: ServerOptions, listener: RequestListener) =>
          createServer(options, requireHost(refuseForeignHosts(names, listener)))) as typeof createServer,
      },
      (info: AddressInfo) => resolve({ server, port: info.port }),
    );
    answerClientErrors(server as Server, log);
    server.once('error', reject);
  });
}

/** Stops accepting connections and waits for requests in progress, at most DRAIN_MS. */
function closeServer(server: ServerType): Promise<void> {
  const http = server as Server;
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => http.closeAllConnections(), DRAIN_MS).unref();
    http.close(() => {
      clearTimeout(force);
      resolve();
    });
    http.closeIdleConnections();
  });
}

/** The address this process reaches itself at: a wildcard bind answers on loopback too. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
