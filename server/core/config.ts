import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from '../../lib/api/zod';
import {
  anyText,
  apiKey,
  blank,
  boolean,
  count,
  egress,
  empty,
  nodeOrigin,
  oneOf,
  port,
  publicOrigins,
  schedule,
  seconds,
  trustedProxies,
  unsetWhen,
  webAddressOrOff,
} from './config-rules';
import { EgressPolicy } from './egress-policy';
import { LOG_LEVELS, type LogLevel } from './log';
import type { TrustedProxies } from './trusted-proxies';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** How long PostgreSQL may take to answer at start (DATABASE_WAIT): it may be starting beside this process. */
  databaseWaitMs: number;
  /** Where the other service processes on the same database reach this one (NODE_URL); its own address if unset. */
  nodeUrl: string | null;
  /** A node silent this long is lost (NODE_LOST_AFTER): its sessions stop as `node_lost`, its starts go elsewhere. */
  nodeLostAfterMs: number;
  /** The public origins this service is also served at (PUBLIC_URL), besides its loopback names and NODE_URL. */
  publicUrls: string[];
  /** The proxies whose X-Forwarded-For names the client (TRUST_PROXY). */
  trustProxy: TrustedProxies;
  /** For the session layer: the browser to launch (found on the machine when null) and whether headless by default. */
  chromePath: string | null;
  headless: boolean;
  /** Where session browsers may connect (EGRESS_ALLOW). */
  egress: EgressPolicy;
  /** What a proxy check asks for the caller's IP through the proxy (PROXY_CHECK_URL); null turns checks off. */
  proxyCheckUrl: string | null;
  limits: Limits;
  /** Whether people may sign up on the dashboard (SIGNUP); when closed, accounts come from the operator. */
  signup: 'open' | 'closed';
  events: { heartbeatMs: number };
  webhooks: WebhookSettings;
  /** The bearer token /metrics asks for (METRICS_TOKEN); null leaves /metrics off. */
  metricsToken: string | null;
  /** Where traces go over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT); null sends none. */
  otlpEndpoint: string | null;
  /** An Enterprise key made at start unless an account has it (BOOTSTRAP_KEY), for a first start; null makes none. */
  bootstrapKey: string | null;
  logLevel: LogLevel;
  version: string;
}

/** What one account, or all of them together, may hold of this machine. */
export interface Limits {
  /** Browsers this process runs at once, all accounts together. */
  maxBrowsers: number;
  /** Sessions an Enterprise account may hold at once (Free and Premium have fixed caps). */
  enterpriseMaxSessions: number;
  /** A session no DevTools client or run has used for this long is stopped (reason `idle`); 0 never. */
  sessionIdleMs: number;
  /** How long an agent's browser_evaluate may run before it is ended and the page freed (EVALUATE_TIMEOUT). */
  evaluateTimeoutMs: number;
  maxStepOutputBytes: number;
  maxRunOutputBytes: number;
  maxArtifactBytes: number;
  /** The most a profile's saved browser data may hold unpacked (PROFILE_STATE_MAX_BYTES); 0 saves none. */
  maxProfileStateBytes: number;
  /**
   * How long a profile's lease outlives its node's last renewal (PROFILE_LEASE_TTL): a lost node's profiles are
   * free again after it. Renewed three times within it.
   */
  leaseTtlMs: number;
}

export interface WebhookSettings {
  /** Addresses webhook URLs may lead to besides the public internet (WEBHOOK_ALLOW, as EGRESS_ALLOW). */
  allowed: EgressPolicy;
  /** Whether plain http:// webhook URLs are taken (WEBHOOK_ALLOW_HTTP); https:// always is. */
  allowHttp: boolean;
  /** Seconds between a failed attempt and the next (WEBHOOK_RETRY_SCHEDULE); after the last, the webhook is disabled. */
  retryDelaysS: number[];
  /** How long one attempt may take before it counts as failed (WEBHOOK_TIMEOUT, seconds). */
  timeoutMs: number;
}

/** Command-line flags win over the environment. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  'data-dir'?: string;
  'database-url'?: string;
}

/** The flags above, for `util.parseArgs`. */
export const CONFIG_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
} as const;

export class ConfigError extends Error {}

/** Answers `{"ip": …, "timezone": …}`: the time zone lets a profile's fingerprint match its proxy. */
const DEFAULT_PROXY_CHECK_URL = 'https://ipinfo.io/json';
/** Retries after 5 s, 1 min, 5 min, 30 min, 1 h, 3 h, 6 h and 12 h: the last about a day after the event. */
const WEBHOOK_RETRY_SCHEDULE = '5,60,300,1800,3600,10800,21600,43200';
/** PostgreSQL's limit for one value. */
const MAX_PROFILE_STATE_BYTES = 2 ** 30;

/** A count whose blank text means unset. */
const countOr = (fallback: number | (() => number), minimum = 1) =>
  unsetWhen(blank, z._default(count(minimum), fallback));
const secondsOr = (fallback: number, minimum = 1) =>
  unsetWhen(blank, z._default(seconds(minimum), fallback * 1000));

/**
 * The environment the service reads, each variable with its rule and default as the README's table lists them
 * (in the order they are checked: the first refused names the error). Those left optional take a default that
 * depends on other variables: `toConfig` gives it.
 */
const environment = z.object({
  LOG_LEVEL: z.prefault(oneOf(LOG_LEVELS, false), 'info'),
  PORT: z.prefault(port, '8787'),
  HOST: z.prefault(anyText, '127.0.0.1'),
  DATA_DIR: z.prefault(anyText, path.join(PROJECT_ROOT, '.data')),
  DATABASE_URL: unsetWhen(empty, z.optional(anyText)),
  DATABASE_WAIT: secondsOr(30, 0),
  NODE_URL: z._default(nodeOrigin, null),
  NODE_LOST_AFTER: secondsOr(15, 3),
  PUBLIC_URL: z.prefault(publicOrigins, ''),
  TRUST_PROXY: z.prefault(trustedProxies, ''),
  CHROME_PATH: unsetWhen(empty, z.optional(anyText)),
  HEADLESS: unsetWhen(empty, z.optional(boolean)),
  EGRESS_ALLOW: z.prefault(egress, ''),
  PROXY_CHECK_URL: z.prefault(webAddressOrOff, DEFAULT_PROXY_CHECK_URL),
  MAX_BROWSERS: countOr(defaultMaxBrowsers),
  ENTERPRISE_MAX_SESSIONS: countOr(50),
  SESSION_IDLE_TIMEOUT: secondsOr(900, 0),
  PROFILE_LEASE_TTL: secondsOr(30),
  EVALUATE_TIMEOUT: secondsOr(20),
  MAX_STEP_OUTPUT_BYTES: countOr(2 ** 20),
  MAX_RUN_OUTPUT_BYTES: countOr(4 * 2 ** 20),
  MAX_ARTIFACT_BYTES: countOr(10 * 2 ** 20),
  PROFILE_STATE_MAX_BYTES: unsetWhen(blank, z.optional(count(0, MAX_PROFILE_STATE_BYTES))),
  SIGNUP: z.prefault(oneOf(['open', 'closed'], true), 'open'),
  EVENT_HEARTBEAT: secondsOr(15),
  WEBHOOK_ALLOW: z.optional(egress),
  WEBHOOK_ALLOW_HTTP: unsetWhen(empty, z.optional(boolean)),
  WEBHOOK_RETRY_SCHEDULE: unsetWhen(empty, z.prefault(schedule, WEBHOOK_RETRY_SCHEDULE)),
  WEBHOOK_TIMEOUT: secondsOr(10),
  METRICS_TOKEN: unsetWhen(empty, z.optional(anyText)),
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetWhen(empty, z.optional(anyText)),
  BOOTSTRAP_KEY: unsetWhen(empty, z.optional(apiKey)),
});

export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  const read = environment.safeParse({
    ...env,
    PORT: flags.port ?? env.PORT,
    HOST: flags.host ?? env.HOST,
    DATA_DIR: flags['data-dir'] ?? env.DATA_DIR,
    DATABASE_URL: flags['database-url'] ?? env.DATABASE_URL,
  });
  if (!read.success) {
    const [issue] = read.error.issues;
    throw new ConfigError(`${issue?.path.join('.')} ${issue?.message}`);
  }
  return toConfig(read.data, env);
}

function toConfig(variables: z.output<typeof environment>, env: NodeJS.ProcessEnv): Config {
  const { HOST: host, DATABASE_URL: databaseUrl = null } = variables;
  if (variables.NODE_URL !== null && databaseUrl === null)
    throw new ConfigError(
      'NODE_URL makes this process a node of a cluster, and the nodes of a cluster share one PostgreSQL: set DATABASE_URL too.',
    );
  // A service bound to loopback serves one machine's own person, who may point webhooks at that machine.
  const local = host === 'localhost' || /^127\./.test(host) || host === '::1';
  return {
    port: variables.PORT,
    host,
    dataDir: path.resolve(variables.DATA_DIR),
    databaseUrl,
    databaseWaitMs: variables.DATABASE_WAIT,
    nodeUrl: variables.NODE_URL,
    nodeLostAfterMs: variables.NODE_LOST_AFTER,
    publicUrls: variables.PUBLIC_URL,
    trustProxy: variables.TRUST_PROXY,
    chromePath: variables.CHROME_PATH ?? null,
    // Without a display a windowed browser cannot start: headless then, unless told otherwise.
    headless: variables.HEADLESS ?? (!env.DISPLAY && !env.WAYLAND_DISPLAY),
    egress: variables.EGRESS_ALLOW,
    proxyCheckUrl: variables.PROXY_CHECK_URL,
    limits: {
      maxBrowsers: variables.MAX_BROWSERS,
      enterpriseMaxSessions: variables.ENTERPRISE_MAX_SESSIONS,
      sessionIdleMs: variables.SESSION_IDLE_TIMEOUT,
      evaluateTimeoutMs: variables.EVALUATE_TIMEOUT,
      maxStepOutputBytes: variables.MAX_STEP_OUTPUT_BYTES,
      maxRunOutputBytes: variables.MAX_RUN_OUTPUT_BYTES,
      maxArtifactBytes: variables.MAX_ARTIFACT_BYTES,
      // 50 MiB on a shared PostgreSQL. Off on the embedded database: only this data dir can use it, so its folders
      // are always the latest, and PGlite took 17 s to store 30 MB, its one connection held meanwhile.
      maxProfileStateBytes: variables.PROFILE_STATE_MAX_BYTES ?? (databaseUrl !== null ? 50 * 2 ** 20 : 0),
      leaseTtlMs: variables.PROFILE_LEASE_TTL,
    },
    signup: variables.SIGNUP,
    events: { heartbeatMs: variables.EVENT_HEARTBEAT },
    webhooks: {
      allowed: variables.WEBHOOK_ALLOW ?? EgressPolicy.parse(local ? 'loopback,private' : ''),
      allowHttp: variables.WEBHOOK_ALLOW_HTTP ?? local,
      retryDelaysS: variables.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: variables.WEBHOOK_TIMEOUT,
    },
    metricsToken: variables.METRICS_TOKEN ?? null,
    otlpEndpoint: variables.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    bootstrapKey: variables.BOOTSTRAP_KEY ?? null,
    logLevel: variables.LOG_LEVEL,
    version: readVersion(),
  };
}

/** A browser takes about 180 MB and a share of a core: what the machine holds, keeping 1 GiB for the rest. */
function defaultMaxBrowsers(): number {
  const byMemory = Math.floor((os.totalmem() - 2 ** 30) / (256 * 2 ** 20));
  return Math.max(1, Math.min(byMemory, os.availableParallelism() * 4));
}

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}
