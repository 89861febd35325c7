import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Chromium's stderr, kept in the profile folder; rewritten at every launch. */
export const STDERR_LOG_FILE = 'chromium-stderr.log';

/** Chromium's exit code when another Chromium holds the profile's SingletonLock. */
const PROFILE_IN_USE_EXIT_CODE = 21;

// Lines Chromium prints on every start in a container, which explain nothing.
const NOISE = /dbus\/|zygote_linux|Broken pipe/;

/**
 * Why Chromium did not come up, as a sentence: it exited (`exit` given) or did not answer on its DevTools
 * pipe within `timeoutMs`. Quotes the first meaningful error Chromium logged, if any.
 */
export function describeStartupFailure(
  userDataDir: string,
  exit: { code: number | null; signal: string | null } | null,
  timeoutMs = 0,
): string {
  if (exit?.code === PROFILE_IN_USE_EXIT_CODE) {
    return `Chromium exited with code 21: the profile folder ${userDataDir} is in use by another Chromium.`;
  }
  const what =
    exit === null
      ? `Chromium did not answer on its DevTools pipe within ${timeoutMs / 1000} s`
      : `Chromium exited during start-up (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`;
  const logPath = join(userDataDir, STDERR_LOG_FILE);
  const reason = firstLoggedError(logPath);
  return reason === null ? `${what}; its log is ${logPath}.` : `${what}: ${reason}`;
}

function firstLoggedError(logPath: string): string | null {
  let log: string;
  try {
    log = readFileSync(logPath, 'utf8');
  } catch {
    return null;
  }
  for (const line of log.split('\n')) {
    // [pid:tid:date/time.us:ERROR:source.cc:line] message
    const match = /^\[[^\]]*:(?:ERROR|FATAL):[^\]]*\]\s*(.+)$/.exec(line);
    if (match?.[1] && !NOISE.test(line)) return match[1].trim();
  }
  return null;
}
