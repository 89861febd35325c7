import type { CdpMessage, CdpPipe } from './cdp-pipe';

/** A target the service's own session attached to, held at its start while the preparers run. */
export interface HeldTarget {
  sessionId: string;
  type: string;
  browserContextId: string | undefined;
  /** A command on the target; a target may close while it is prepared, so a failure answers undefined. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
}

/** What the service does to each new target before it runs (the identity's overrides, the relay's answer). */
export type TargetPreparer = (target: HeldTarget) => Promise<unknown>;

/** Targets that have frames or workers of their own, which are attached to in turn. */
const NESTING_TYPES = new Set(['page', 'iframe']);
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

/**
 * The service's own session auto-attaches to every target (tabs whoever opens them, out-of-process frames,
 * dedicated, shared and service workers), each held at its start until every preparer has run, then let go.
 * Clients of the relay have sessions of their own and cannot detach this one, and no target is added: the
 * clients see the targets they saw before. Resolves once auto-attach is on.
 */
export async function holdEveryTarget(pipe: CdpPipe, preparers: TargetPreparer[]): Promise<void> {
  const ownSessions = new Set<string>();
  const hold = async (target: HeldTarget) => {
    await Promise.all([
      ...preparers.map((prepare) => prepare(target)),
      NESTING_TYPES.has(target.type) && target.send('Target.setAutoAttach', AUTO_ATTACH),
    ]);
    await target.send('Runtime.runIfWaitingForDebugger');
  };
  pipe.onMessage((message: CdpMessage) => {
    const mine = message.sessionId === undefined || ownSessions.has(message.sessionId);
    const child = message.params?.sessionId;
    if (!mine || typeof child !== 'string') return;
    if (message.method === 'Target.detachedFromTarget') ownSessions.delete(child);
    if (message.method !== 'Target.attachedToTarget') return;
    ownSessions.add(child);
    const info = message.params?.targetInfo as { type?: string; browserContextId?: string } | undefined;
    void hold({
      sessionId: child,
      type: info?.type ?? '',
      browserContextId: info?.browserContextId,
      send: (method, params = {}) => pipe.send(method, params, child).catch(() => undefined),
    });
  });
  await pipe.send('Target.setAutoAttach', AUTO_ATTACH);
}
