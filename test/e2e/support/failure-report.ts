/**
 * Set up before every end-to-end file: a failed test prints what its services logged last (each request with its
 * status and time), and what the extension's pages showed and its pages and worker wrote to the console, so that a
 * failure seen once on a CI runner says what the service and the extension were doing.
 */
import { beforeEach } from 'vitest';
import { recentServiceLogs } from '../../support/harness';
import { extensionsNow } from './extension';

const LINES = 40;

beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    const logs = recentServiceLogs(LINES);
    if (logs) console.info(logs);
    const extensions = await extensionsNow();
    if (extensions) console.info(extensions);
  });
});
