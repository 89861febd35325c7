import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { SessionRow } from '../store/sessions';

/** Stops sessions no DevTools client (the runner is one) has used for the idle timeout. */
export interface IdleWatch {
  /** Arms the session's timer, re-armed each time its last DevTools client leaves while it still runs here. */
  watch(session: SessionRow, devtools: CdpMultiplexer, runsHere: () => boolean): void;
  /** The session's browser is gone: its timer goes too. */
  forget(sessionId: string): void;
}

/** `idleMs` 0 watches nothing; `onIdle` is told the session that went idle. */
export function createIdleWatch(
  idleMs: number,
  onIdle: (accountId: string, sessionId: string) => void,
): IdleWatch {
  const timers = new Map<string, NodeJS.Timeout>();
  return {
    watch(session, devtools, runsHere) {
      if (idleMs === 0) return;
      const sessionId = session.id;
      const arm = () => {
        clearTimeout(timers.get(sessionId));
        const timer = setTimeout(() => onIdle(session.account_id, sessionId), idleMs);
        timers.set(sessionId, timer.unref());
      };
      arm();
      devtools.onClientCount((count) => {
        if (count > 0) clearTimeout(timers.get(sessionId));
        else if (runsHere()) arm();
      });
    },
    forget(sessionId) {
      clearTimeout(timers.get(sessionId));
      timers.delete(sessionId);
    },
  };
}
