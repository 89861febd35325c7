/**
 * A service worker of the identity check's: taken over at once, it answers `service-worker-echo` itself with what
 * it read when it started, so a page can tell that it registered, runs and answers `fetch` with the identity.
 */
export function checkServiceWorkerSource(): string {
  return `const started = JSON.stringify({
  memory_gb: navigator.deviceMemory ?? null,
  cpu_cores: navigator.hardwareConcurrency,
  user_agent: navigator.userAgent,
});
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.endsWith('/service-worker-echo'))
    event.respondWith(new Response(started, { headers: { 'Content-Type': 'application/json' } }));
});`;
}

/** What registering the check's service worker showed: how long it took, and what the worker answered. */
export interface ServiceWorkerReading {
  registered: boolean;
  ms: number;
  /** The worker's own reading, from its `fetch` handler; null if it never answered. */
  answer: { memory_gb: number | null; cpu_cores: number; user_agent: string } | null;
  error: string | null;
}

/**
 * Runs in the checked page: registers, updates (when asked: an update fetches the script past DevTools' `Fetch`,
 * which answers the service's own check), waits until the worker controls the page, and asks it.
 */
export async function registerServiceWorker(
  url: string,
  timeoutMs: number,
  update: boolean,
): Promise<ServiceWorkerReading> {
  const started = performance.now();
  const within = <T>(promise: Promise<T>, step: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, fail) =>
        setTimeout(() => fail(new Error(`${step}: no answer in ${timeoutMs} ms`)), timeoutMs),
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
