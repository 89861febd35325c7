/**
 * Polls `read` until it gives something other than undefined, and resolves with that; rejects with `what` and
 * the last failure once `ms` pass. `read` may throw while the thing is not there yet.
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}${lastError ? `: ${lastError}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
