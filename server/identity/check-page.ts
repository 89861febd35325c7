/**
 * The identity check's pages: a page that reads every surface itself, in a frame of another site (out of process),
 * in a dedicated worker and in a service worker it registers, and gathers the readings in
 * `window.identitySurfaces` (a promise). Each scope reads what a detector reads there too (detector-page.ts).
 */

import { readDetector } from './detector-page';
import { readProbes } from './detector-probes';
import { readScope, type ScopeReading } from './scope-reading';
import { registerServiceWorker } from './service-worker-page';

export interface CheckReadings {
  page: ScopeReading;
  frame: ScopeReading | null;
  worker: ScopeReading | null;
  /** The service worker's own reading, as its `fetch` handler answered it; null if it never did. */
  service_worker: ScopeReading | null;
}

// A TypeScript runner may wrap named functions in a `__name` helper of its own: a local one stands in for it.
const PRELUDE = 'const __name = (f) => f;';
const READERS = `${PRELUDE}const readScope = ${readScope.toString()}; const readDetector = ${readDetector.toString()}; const readProbes = ${readProbes.toString()};`;
/** From `register()` to the worker's answer: a raw Chromium takes half a second. */
export const SERVICE_WORKER_BOUND_MS = 5000;

/**
 * The checked page: reads itself, its frame (which posts its reading up) and a worker, and registers the service
 * worker at `serviceWorkerUrl` (none without one), which answers with its own reading.
 */
export function checkPageHtml(frameUrl: string, workerUrl: string, serviceWorkerUrl?: string): string {
  const script = `${READERS} const registerServiceWorker = ${registerServiceWorker.toString()};
window.identitySurfaces = (async () => {
  const settle = (promise, ms = 10000) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(null), ms))]);
  const frame = settle(new Promise((resolve) => {
    addEventListener('message', (event) => { if (event.data && event.data.identityFrame) resolve(event.data.identityFrame); });
  }));
  const worker = settle(new Promise((resolve) => {
    const running = new Worker(${JSON.stringify(workerUrl)});
    running.onmessage = (event) => resolve(event.data);
    running.onerror = () => resolve(null);
  }));
  const iframe = document.createElement('iframe');
  iframe.src = ${JSON.stringify(frameUrl)};
  document.body.append(iframe);
  // A request of the page's own, after the first answer asked for every client hint.
  await fetch('page-fetch').catch(() => null);
  const page = await readScope();
  const registration = ${serviceWorkerUrl ? `await registerServiceWorker(${JSON.stringify(serviceWorkerUrl)}, ${SERVICE_WORKER_BOUND_MS}, false)` : 'null'};
  page.service_worker = registration && { ...registration, answer: undefined, answered: registration.answer !== null };
  // The check leaves no worker in the profile (a later visit would go through it).
  if (registration) await settle(navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((each) => each.unregister()))), 2000);
  return { page, frame: await frame, worker: await worker, service_worker: registration ? registration.answer : null };
})();`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Identity check</title></head><body><script>${script}</script></body></html>`;
}

/** The checked page's frame: posts its reading to the page. */
export function checkFrameHtml(): string {
  const script = `${READERS} readScope().then((reading) => parent.postMessage({ identityFrame: reading }, '*'));`;
  return `<!doctype html><html><body><script>${script}</script></body></html>`;
}

/** The checked page's worker: posts its reading to the page. */
export function checkWorkerSource(): string {
  // A request of the worker's own, whose headers the server compares with the page's.
  return `${READERS} fetch('worker-fetch').catch(() => null).then(readScope).then((reading) => postMessage(reading));`;
}

/**
 * The check's service worker: taken over at once, it answers `service-worker-echo` itself with what it read when
 * it started, so a page can tell that it registered, runs and answers `fetch` with the identity.
 */
export function checkServiceWorkerSource(): string {
  return `${READERS}
const started = readScope().then((reading) => JSON.stringify(reading), (error) => JSON.stringify({ error: String(error) }));
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.endsWith('/service-worker-echo'))
    event.respondWith(started.then((body) => new Response(body, { headers: { 'Content-Type': 'application/json' } })));
});`;
}
