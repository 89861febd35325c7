import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLogLevel, type LogLevel } from './log';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** For the session layer: the browser to launch (found on the machine when null) and whether headless by default. */
  chromePath: string | null;
  headless: boolean;
  logLevel: LogLevel;
  version: string;
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

export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!isLogLevel(logLevel))
    throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, not "${logLevel}"`);
  return {
    port: parsePort(flags.port ?? env.PORT ?? '8787'),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(flags['data-dir'] ?? env.DATA_DIR ?? path.join(PROJECT_ROOT, '.data')),
    databaseUrl: flags['database-url'] ?? (env.DATABASE_URL || null),
    chromePath: env.CHROME_PATH || null,
    // Without a display a windowed browser cannot start: headless then, unless told otherwise.
    headless: env.HEADLESS ? parseBoolean('HEADLESS', env.HEADLESS) : !env.DISPLAY && !env.WAYLAND_DISPLAY,
    logLevel,
    version: readVersion(),
  };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new ConfigError(`PORT must be 0 to 65535, not "${text}"`);
  return port;
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
