/**
 * Set up before every end-to-end file: a failed test prints what its services logged last (each request with its
 * status and time), so that a failure seen once on a CI runner says what the service was doing.
 */
import { beforeEach } from 'vitest';
import { recentServiceLogs } from '../../support/harness';

const LINES = 40;

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const logs = recentServiceLogs(LINES);
    if (logs) console.info(logs);
  });
});
