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
 * pipe within `timeoutMs`. Quotes the first meaningful error Chromium logged, if any. The sentence reaches
 * API clients, so it names no file path of the service's machine: the quoted error has its paths taken out,
 * and the log is named by its file name in the profile's folder.
 */
export function describeStartupFailure(
  userDataDir: string,
  exit: { code: number | null; signal: string | null } | null,
  timeoutMs = 0,
): string {
  if (exit?.code === PROFILE_IN_USE_EXIT_CODE) {
    return "Chromium exited with code 21: the profile's folder is in use by another Chromium.";
  }
  const what =
    exit === null
      ? `Chromium did not answer on its DevTools pipe within ${timeoutMs / 1000} s`
      : `Chromium exited during start-up (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`;
  const reason = firstLoggedError(join(userDataDir, STDERR_LOG_FILE));
  return reason === null
    ? `${what}; its log is ${STDERR_LOG_FILE} in the profile's folder on the service's machine.`
    : `${what}: ${withoutPaths(reason, userDataDir)}`;
}

/**
 * `text` with every absolute file path (not a URL's `//`) replaced by "[path]"; the profile's folder first, by
 * name, so that a space in it cannot leave a part behind.
 */
export function withoutPaths(text: string, userDataDir: string): string {
  return text.replaceAll(userDataDir, '[path]').replace(/(^|[\s'"(=])\/(?!\/)[^\s'"()]*/g, '$1[path]');
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
