import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EgressPolicy, EgressSettingError } from './egress-policy';
import { isLogLevel, type LogLevel } from './log';
import { TrustedProxies, TrustProxySettingError } from './trusted-proxies';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Where the other service processes on the same database reach this one (NODE_URL); its own address if unset. */
  nodeUrl: string | null;
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
  maxStepOutputBytes: number;
  maxRunOutputBytes: number;
  maxArtifactBytes: number;
  /** The most a profile's saved browser data may hold unpacked (PROFILE_STATE_MAX_BYTES); 0 saves none. */
  maxProfileStateBytes: number;
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

/** Retries after 5 s, 1 min, 5 min, 30 min, 1 h, 3 h, 6 h and 12 h: the last about a day after the event. */
const WEBHOOK_RETRY_SCHEDULE = '5,60,300,1800,3600,10800,21600,43200';

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

export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!isLogLevel(logLevel))
    throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, not "${logLevel}"`);
  const host = flags.host ?? env.HOST ?? '127.0.0.1';
  // A service bound to loopback serves one machine's own person, who may point webhooks at that machine.
  const local = isLoopbackHost(host);
  const databaseUrl = flags['database-url'] ?? (env.DATABASE_URL || null);
  return {
    port: parsePort(flags.port ?? env.PORT ?? '8787'),
    host,
    dataDir: path.resolve(flags['data-dir'] ?? env.DATA_DIR ?? path.join(PROJECT_ROOT, '.data')),
    databaseUrl,
    nodeUrl: parseNodeUrl(env.NODE_URL ?? ''),
    publicUrls: parsePublicUrls(env.PUBLIC_URL ?? ''),
    trustProxy: parseTrustProxy(env.TRUST_PROXY ?? ''),
    chromePath: env.CHROME_PATH || null,
    // Without a display a windowed browser cannot start: headless then, unless told otherwise.
    headless: env.HEADLESS ? parseBoolean('HEADLESS', env.HEADLESS) : !env.DISPLAY && !env.WAYLAND_DISPLAY,
    egress: parseEgress(env.EGRESS_ALLOW ?? ''),
    proxyCheckUrl: parseProxyCheckUrl(env.PROXY_CHECK_URL ?? DEFAULT_PROXY_CHECK_URL),
    limits: {
      maxBrowsers: parseCount('MAX_BROWSERS', env.MAX_BROWSERS, defaultMaxBrowsers()),
      enterpriseMaxSessions: parseCount('ENTERPRISE_MAX_SESSIONS', env.ENTERPRISE_MAX_SESSIONS, 50),
      sessionIdleMs: parseCount('SESSION_IDLE_TIMEOUT', env.SESSION_IDLE_TIMEOUT, 900, 0) * 1000,
      maxStepOutputBytes: parseCount('MAX_STEP_OUTPUT_BYTES', env.MAX_STEP_OUTPUT_BYTES, 2 ** 20),
      maxRunOutputBytes: parseCount('MAX_RUN_OUTPUT_BYTES', env.MAX_RUN_OUTPUT_BYTES, 4 * 2 ** 20),
      maxArtifactBytes: parseCount('MAX_ARTIFACT_BYTES', env.MAX_ARTIFACT_BYTES, 10 * 2 ** 20),
      maxProfileStateBytes: parseProfileStateLimit(env.PROFILE_STATE_MAX_BYTES, databaseUrl !== null),
    },
    signup: parseSignup(env.SIGNUP ?? 'open'),
    events: { heartbeatMs: parseCount('EVENT_HEARTBEAT', env.EVENT_HEARTBEAT, 15) * 1000 },
    webhooks: {
      allowed: parseEgress(env.WEBHOOK_ALLOW ?? (local ? 'loopback,private' : ''), 'WEBHOOK_ALLOW'),
      allowHttp: env.WEBHOOK_ALLOW_HTTP ? parseBoolean('WEBHOOK_ALLOW_HTTP', env.WEBHOOK_ALLOW_HTTP) : local,
      retryDelaysS: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE || WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: parseCount('WEBHOOK_TIMEOUT', env.WEBHOOK_TIMEOUT, 10) * 1000,
    },
    logLevel,
    version: readVersion(),
  };
}

/** Answers `{"ip": …, "timezone": …}`: the time zone lets a profile's fingerprint match its proxy. */
const DEFAULT_PROXY_CHECK_URL = 'https://ipinfo.io/json';

function parseProxyCheckUrl(text: string): string | null {
  if (text.trim() === '') return null;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`PROXY_CHECK_URL must be an http:// or https:// address, not "${text}"`);
  return url.href;
}

function parseNodeUrl(text: string): string | null {
  if (text.trim() === '') return null;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/')
    throw new ConfigError(
      `NODE_URL must be an http:// address with no path, such as http://10.0.0.5:8787, not "${text}"`,
    );
  return url.origin;
}

function parsePublicUrls(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const url = URL.canParse(part) ? new URL(part) : null;
      if (
        !url ||
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        url.pathname !== '/' ||
        url.username
      )
        throw new ConfigError(
          `PUBLIC_URL must be http:// or https:// addresses with no path, separated by commas (such as https://pilot.example.com), not "${part}"`,
        );
      return url.origin;
    });
}

function parseTrustProxy(text: string): TrustedProxies {
  try {
    return TrustedProxies.parse(text);
  } catch (error) {
    if (error instanceof TrustProxySettingError) throw new ConfigError(error.message);
    throw error;
  }
}

function parseSignup(text: string): Config['signup'] {
  const value = text.trim().toLowerCase();
  if (value === 'open' || value === 'closed') return value;
  throw new ConfigError(`SIGNUP must be open or closed, not "${text}"`);
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || /^127\./.test(host) || host === '::1';
}

function parseSchedule(text: string): number[] {
  const delays = text.split(',').map((part) => part.trim());
  if (delays.some((delay) => !/^\d+$/.test(delay)))
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be seconds separated by commas, not "${text}"`);
  return delays.map(Number);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new ConfigError(`PORT must be 0 to 65535, not "${text}"`);
  return port;
}

function parseEgress(setting: string, name = 'EGRESS_ALLOW'): EgressPolicy {
  try {
    return EgressPolicy.parse(setting);
  } catch (error) {
    if (error instanceof EgressSettingError)
      throw new ConfigError(error.message.replace('EGRESS_ALLOW', name));
    throw error;
  }
}

function parseCount(name: string, text: string | undefined, fallback: number, minimum = 1): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < minimum)
    throw new ConfigError(`${name} must be a whole number of at least ${minimum}, not "${text}"`);
  return value;
}

/**
 * 50 MiB by default on a shared PostgreSQL; at most 1 GiB, PostgreSQL's limit for one value. Off by default on the
 * embedded database: only this data dir can use it, so its folders are always the latest, and PGlite took 17 s to
 * store 30 MB, its one connection held meanwhile.
 */
function parseProfileStateLimit(text: string | undefined, sharedDatabase: boolean): number {
  const limit = parseCount('PROFILE_STATE_MAX_BYTES', text, sharedDatabase ? 50 * 2 ** 20 : 0, 0);
  if (limit > 2 ** 30)
    throw new ConfigError(`PROFILE_STATE_MAX_BYTES must be at most ${2 ** 30}, not "${text}"`);
  return limit;
}

/** A browser takes about 180 MB and a share of a core: what the machine holds, keeping 1 GiB for the rest. */
function defaultMaxBrowsers(): number {
  const byMemory = Math.floor((os.totalmem() - 2 ** 30) / (256 * 2 ** 20));
  return Math.max(1, Math.min(byMemory, os.availableParallelism() * 4));
}

function parseBoolean(name: string, text: string): boolean {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, not "${text}"`);
}

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}
