import { effectiveCapabilities, type Scheduling, schedulingOf } from '../core/processes';

/** How much nicer than the service a browser runs. */
const NICER_BY = 10;
const REAL_TIME_SWITCHES: Record<number, string> = { 1: '--fifo', 2: '--rr' };
const CAP_SETPCAP = 8n;
const CAP_SYS_NICE = 23n;

/** What the service runs with: its scheduling (null if unknown) and its effective capabilities. */
export interface ServiceProcess {
  scheduling: Scheduling | null;
  capabilities: bigint;
}

const thisProcess = (): ServiceProcess => ({
  scheduling: schedulingOf('self'),
  capabilities: effectiveCapabilities(),
});

/**
 * The command line that starts `command` at a lower CPU priority than the service, which every process it starts
 * inherits, so that the API answers promptly while the browsers take the cores (issue 48): NICER_BY nicer, and when
 * the service runs under a real-time policy (a bench under `chrt`), one real-time priority lower (the normal policy
 * below priority 2). With CAP_SYS_NICE (root), Chromium would set its threads' nice values itself (down to −8 for
 * drawing and input): it runs without it, dropped by `setpriv` where the service may drop it (CAP_SETPCAP).
 * `chrt`, `setpriv` and `nice` exec what they start, so the pid stays the browser's.
 */
export function belowService(
  command: string,
  args: string[],
  service: ServiceProcess = thisProcess(),
): { command: string; args: string[] } {
  let line = ['nice', '-n', String(NICER_BY), command, ...args];
  if (holds(service, CAP_SYS_NICE) && holds(service, CAP_SETPCAP))
    line = ['setpriv', '--bounding-set', '-sys_nice', ...line];
  const { scheduling } = service;
  const realTime = scheduling && REAL_TIME_SWITCHES[scheduling.policy];
  if (scheduling && realTime) {
    const lower =
      scheduling.realTimePriority > 1
        ? [realTime, String(scheduling.realTimePriority - 1)]
        : ['--other', '0'];
    line = ['chrt', ...lower, ...line];
  }
  const [first, ...rest] = line as [string, ...string[]];
  return { command: first, args: rest };
}

function holds(service: ServiceProcess, capability: bigint): boolean {
  return ((service.capabilities >> capability) & 1n) === 1n;
}
