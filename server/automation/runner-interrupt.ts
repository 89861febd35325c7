export type InterruptReason = 'time_limit' | 'cancelled' | 'tab_gone';

const MESSAGES: Record<InterruptReason, string> = {
  time_limit: 'the run exceeded its time limit',
  cancelled: 'the run was cancelled',
  tab_gone: "the run's tab closed or its browser went away",
};

/** The run's time limit passed, its signal aborted or its tab went away while work was under way. */
export class RunInterrupted extends Error {
  constructor(readonly reason: InterruptReason) {
    super(MESSAGES[reason]);
    this.name = 'RunInterrupted';
  }
}

/**
 * Settles with `work`, or rejects with RunInterrupted as soon as `deadline` (epoch ms) passes, `signal` aborts
 * or `gone` does (the tab the work needs went away, which a plain wait would not notice). Work that loses the race is not awaited: `stop` tells it to give up (timers listen to it), and closing
 * the run's page ends whatever Playwright call is still pending.
 */
export async function interruptible<T>(
  work: (stop: AbortSignal) => Promise<T>,
  deadline: number,
  signal?: AbortSignal,
  gone?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) throw new RunInterrupted('cancelled');
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new RunInterrupted('time_limit');

  const stop = new AbortController();
  const interrupted = new Promise<never>((_, reject) => {
    stop.signal.addEventListener('abort', () => reject(stop.signal.reason), { once: true });
  });
  const cancel = () => stop.abort(new RunInterrupted('cancelled'));
  const lost = () => stop.abort(new RunInterrupted('tab_gone'));
  const timer = setTimeout(() => stop.abort(new RunInterrupted('time_limit')), remaining);
  signal?.addEventListener('abort', cancel, { once: true });
  if (gone?.aborted) lost();
  gone?.addEventListener('abort', lost, { once: true });
  try {
    return await Promise.race([work(stop.signal), interrupted]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
    gone?.removeEventListener('abort', lost);
  }
}
