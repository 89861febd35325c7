import { schedulingOf } from '../core/processes';

/** How much nicer than the service a browser runs. */
const NICER_BY = 10;
const REAL_TIME_SWITCHES: Record<number, string> = { 1: '--fifo', 2: '--rr' };

/**
 * The command line that starts `command` at a lower CPU priority than the service, which every process it starts
 * inherits, so that the API answers promptly while the browsers take the cores (issue 48): NICER_BY nicer, and when
 * the service runs under a real-time policy (a bench under `chrt`), one real-time priority lower (the normal policy
 * below priority 2). As root, Chromium would set its threads' nice values itself (down to −8 for drawing and input):
 * it runs without the capability to raise them. `chrt`, `setpriv` and `nice` exec what they start, so the pid stays
 * the browser's.
 */
export function belowService(command: string, args: string[]): { command: string; args: string[] } {
  let line = ['nice', '-n', String(NICER_BY), command, ...args];
  if (process.getuid?.() === 0) line = ['setpriv', '--bounding-set', '-sys_nice', ...line];
  const service = schedulingOf('self');
  const realTime = service && REAL_TIME_SWITCHES[service.policy];
  if (service && realTime) {
    const lower =
      service.realTimePriority > 1 ? [realTime, String(service.realTimePriority - 1)] : ['--other', '0'];
    line = ['chrt', ...lower, ...line];
  }
  const [first, ...rest] = line as [string, ...string[]];
  return { command: first, args: rest };
}
