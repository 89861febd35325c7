import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import {
  type CheckReadings,
  checkFrameHtml,
  checkPageHtml,
  checkServiceWorkerSource,
  checkWorkerSource,
} from './check-page';
import { openDevtoolsClient } from './devtools-client';

/** What a check saw: the scopes' readings and the headers of each request, by path. */
export interface CheckPageVisit {
  readings: CheckReadings;
  headers: Map<string, Record<string, string>>;
  /** e.g. Chrome/156.0.8078.108 */
  product: string;
}

// Names under the reserved .invalid domain: no request for them can leave the browser, whatever the proxy.
const PAGE_ORIGIN = 'https://page.identity-check.invalid';
const FRAME_ORIGIN = 'https://frame.identity-check.invalid';
const VISIT_TIMEOUT_MS = 20_000;
const ACCEPT_CH =
  'Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Arch, Sec-CH-UA-Bitness, Sec-CH-UA-Model';

/** The check's pages, answered by the service itself from inside the browser (DevTools `Fetch`), never the network. */
function answerFor(path: string): { type: string; body: string } | null {
  if (path === '/')
    return {
      type: 'text/html',
      body: checkPageHtml(`${FRAME_ORIGIN}/frame`, '/worker.js', '/service-worker.js'),
    };
  if (path === '/service-worker.js') return { type: 'text/javascript', body: checkServiceWorkerSource() };
  if (path === '/frame') return { type: 'text/html', body: checkFrameHtml() };
  if (path === '/worker.js') return { type: 'text/javascript', body: checkWorkerSource() };
  if (path === '/page-fetch' || path === '/worker-fetch') return { type: 'text/plain', body: 'seen' };
  return null;
}

/**
 * Opens a tab of the session's browser on the check page (which the identity reaches like any other tab), reads
 * what it gathered, and closes the tab; the session is otherwise untouched.
 */
export async function visitCheckPage(devtools: CdpMultiplexer): Promise<CheckPageVisit> {
  const client = await openDevtoolsClient(devtools);
  const headers = new Map<string, Record<string, string>>();
  let targetId: string | null = null;
  try {
    client.onEvent((message) => {
      if (message.method !== 'Fetch.requestPaused') return;
      const { requestId, request } = message.params as {
        requestId: string;
        request: { url: string; headers: Record<string, string> };
      };
      const path = new URL(request.url).pathname;
      headers.set(path, lowerCased(request.headers));
      const answer = answerFor(path);
      const reply = answer
        ? client.send('Fetch.fulfillRequest', {
            requestId,
            responseCode: 200,
            responseHeaders: [
              { name: 'Content-Type', value: answer.type },
              { name: 'Accept-CH', value: ACCEPT_CH },
            ],
            body: Buffer.from(answer.body).toString('base64'),
          })
        : client.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
      reply.catch(() => undefined);
    });
    await client.send('Fetch.enable', { patterns: [{ urlPattern: '*://*.identity-check.invalid/*' }] });
    const { product } = await client.send('Browser.getVersion');
    ({ targetId } = (await client.send('Target.createTarget', { url: 'about:blank' })) as {
      targetId: string;
    });
    const { sessionId } = (await client.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    await client.send('Page.navigate', { url: `${PAGE_ORIGIN}/` }, sessionId);
    const readings = await readWhenReady((expression) =>
      client.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId),
    );
    return { readings, headers, product: String(product) };
  } finally {
    if (targetId) await client.send('Target.closeTarget', { targetId }).catch(() => undefined);
    client.close();
  }
}

/** Asks the page for its readings until its document is the check page (the navigation may still commit). */
async function readWhenReady(
  evaluate: (expression: string) => Promise<Record<string, unknown>>,
): Promise<CheckReadings> {
  const deadline = Date.now() + VISIT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const answer = await evaluate('window.identitySurfaces ?? null').catch(() => null);
    const value = (answer?.result as { value?: CheckReadings | null } | undefined)?.value;
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the check page gave no readings in time');
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
