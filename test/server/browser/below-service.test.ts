/**
 * The command line that starts a browser below the service, as the service's process decides it: the unit test
 * of below-service.ts (launch-browser.test.ts reads the priorities of a real browser's processes).
 */
import { describe, expect, it } from 'vitest';
import { belowService } from '../../../server/browser/below-service';

const normal = { nice: 0, realTimePriority: 0, policy: 0 };
const ROOT = (1n << 41n) - 1n;
const line = (service: Parameters<typeof belowService>[2]) => {
  const { command, args } = belowService('/usr/lib/chromium/chromium', ['--headless'], service);
  return [command, ...args].join(' ');
};

describe('a browser started below the service', () => {
  it('is 10 nicer', () => {
    expect(line({ scheduling: normal, capabilities: 0n })).toBe(
      'nice -n 10 /usr/lib/chromium/chromium --headless',
    );
  });

  it('cannot raise its threads again when the service could (root): the capability is dropped for it', () => {
    expect(line({ scheduling: normal, capabilities: ROOT })).toBe(
      'setpriv --bounding-set -sys_nice nice -n 10 /usr/lib/chromium/chromium --headless',
    );
  });

  it('goes without setpriv where the service may not drop a capability (root without CAP_SETPCAP)', () => {
    const withoutSetpcap = ROOT & ~(1n << 8n);
    expect(line({ scheduling: normal, capabilities: withoutSetpcap })).toBe(
      'nice -n 10 /usr/lib/chromium/chromium --headless',
    );
  });

  it('runs one real-time priority lower, or normal below priority 2, when the service runs real-time', () => {
    expect(line({ scheduling: { nice: 0, realTimePriority: 10, policy: 2 }, capabilities: 0n })).toBe(
      'chrt --rr 9 nice -n 10 /usr/lib/chromium/chromium --headless',
    );
    expect(line({ scheduling: { nice: 0, realTimePriority: 1, policy: 1 }, capabilities: 0n })).toBe(
      'chrt --other 0 nice -n 10 /usr/lib/chromium/chromium --headless',
    );
  });
});
