import type { ScopeReading } from './scope-reading';

/** What registering the check's service worker showed: how long it took, and what the worker answered. */
export interface ServiceWorkerReading {
  registered: boolean;
  /** From `register()` to the worker's answer (or to the failure). */
  ms: number;
  /** The worker's own reading, from its `fetch` handler; null if it never answered. */
  answer: ScopeReading | null;
  error: string | null;
}

/**
 * Runs in the checked page: registers, updates (when asked: an update fetches the script past DevTools' `Fetch`,
 * which answers the service's own check), waits until the worker controls the page, and asks it; all of it within
 * `boundMs`.
 */
export async function registerServiceWorker(
  url: string,
  boundMs: number,
  update: boolean,
): Promise<ServiceWorkerReading> {
  const started = performance.now();
  const within = <T>(promise: Promise<T>, step: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, fail) =>
        setTimeout(
          () => fail(new Error(`${step}: no answer ${boundMs} ms after register()`)),
          Math.max(0, started + boundMs - performance.now()),
        ),
      ),
    ]);
  try {
    const registration = await within(navigator.serviceWorker.register(url), 'register');
    await within(navigator.serviceWorker.ready, 'ready');
    if (update) await within(registration.update(), 'update');
    if (!navigator.serviceWorker.controller)
      await within(
        new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve)),
        'control',
      );
    const answer = await within(
      fetch('service-worker-echo').then((response) => response.json()),
      'fetch',
    );
    return { registered: true, ms: Math.round(performance.now() - started), answer, error: null };
  } catch (error) {
    return {
      registered: false,
      ms: Math.round(performance.now() - started),
      answer: null,
      error: String(error),
    };
  }
}
