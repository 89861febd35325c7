export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SECRETS = [
  { pattern: /(pp_live_[A-Za-z0-9]{4})[A-Za-z0-9]*/g, replacement: '$1…[redacted]' },
  { pattern: /(bearer\s+)[^\s"]+/gi, replacement: '$1[redacted]' },
  // A cdp_url's or live view's token, in an address written anywhere in a line (the request log cuts its paths).
  { pattern: /(\/cdp\/)[^\s"]+/gi, replacement: '$1…' },
  { pattern: /(\/live\/[^\s"/]+\/)[^\s"]+/gi, replacement: '$1…' },
];

/** Hides API keys, bearer tokens and DevTools or live view tokens in a log line; a key's display prefix stays readable. */
export function redactSecrets(text: string): string {
  return SECRETS.reduce((line, { pattern, replacement }) => line.replace(pattern, replacement), text);
}

export const LOG_LEVELS = Object.keys(LEVELS) as LogLevel[];

/** Structured logs: one JSON object a line (`time`, `level`, `msg`, fields), secrets redacted. */
export function createLogger(options: {
  level?: LogLevel;
  write?: (line: string) => void;
  fields?: LogFields;
}): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const base = options.fields ?? {};
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    if (LEVELS[level] < threshold) return;
    const record = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    write(`${redactSecrets(JSON.stringify(record, serializeErrors))}\n`);
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

function serializeErrors(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
