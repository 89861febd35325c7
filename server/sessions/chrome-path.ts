import { CHROME_INSTALL_HINT, findChrome } from '../browser/find-chrome';
import { Unavailable } from '../core/domain-errors';
import type { Logger } from '../core/log';

/**
 * CHROME_PATH when set (and then only it: a typo should not silently launch another browser), else a search.
 * The path goes to the log, not to the client: no answer shows a file path of the service's machine.
 */
export function chromeToLaunch(configured: string | null, log: Logger): string {
  const found = configured ? findChrome({ CHROME_PATH: configured, PATH: '' }) : findChrome();
  if (found && (!configured || found === configured)) return found;
  if (configured) log.warn('CHROME_PATH is not an executable file', { chrome_path: configured });
  throw new Unavailable(
    'browser_unavailable',
    configured
      ? `The service's CHROME_PATH setting does not name an executable file. ${CHROME_INSTALL_HINT}`
      : `No Chrome or Chromium was found on the service's machine. ${CHROME_INSTALL_HINT}`,
  );
}
