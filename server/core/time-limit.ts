/**
 * A signal that aborts after `ms` or when `also` does, and a way to stop its clock. A timer of its own, not
 * AbortSignal.timeout: a timeout signal that only AbortSignal.any refers to may be garbage-collected before it
 * fires, and whatever waits on it then waits for ever (a browser_evaluate did, after a large answer).
 */
export function timeLimit(ms: number, also: AbortSignal): { signal: AbortSignal; clear(): void } {
  const timeUp = new AbortController();
  const clock = setTimeout(() => timeUp.abort(new DOMException('time is up', 'TimeoutError')), ms);
  return { signal: AbortSignal.any([also, timeUp.signal]), clear: () => clearTimeout(clock) };
}

/** True if the promise settles within `ms`, false otherwise; leaves no timer behind. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((settle) => {
    timer = setTimeout(() => settle(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
