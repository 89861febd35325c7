import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  checkFrameHtml,
  checkPageHtml,
  checkServiceWorkerSource,
  checkWorkerSource,
} from '../../server/identity/check-page';

const require = createRequire(import.meta.url);
const FINGERPRINTJS = readFileSync(
  require.resolve('@fingerprintjs/fingerprintjs/dist/fp.umd.min.js'),
  'utf8',
);

/**
 * Serves the identity check's pages (page, frame, worker) and FingerprintJS's open-source build on loopback,
 * and keeps the headers each request came with. `/` frames `frameHost` (by default another site: an
 * out-of-process frame; the test proxy reaches only 127.0.0.1).
 */
export async function startCheckServer(frameHost = 'localhost') {
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  let frameOrigin = '';
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ path, headers: request.headers });
    const send = (type: string, body: string) =>
      response.writeHead(200, { 'Content-Type': type, 'Accept-CH': ACCEPT_CH }).end(body);
    if (path === '/') send('text/html', checkPageHtml(`${frameOrigin}/frame`, '/worker.js'));
    else if (path === '/frame') send('text/html', checkFrameHtml());
    else if (path === '/worker.js') send('text/javascript', checkWorkerSource());
    else if (path === '/service-worker.js') send('text/javascript', checkServiceWorkerSource());
    else if (path === '/blank') send('text/html', '<!doctype html><title>blank</title><body></body>');
    else if (path === '/worker-fetch' || path === '/page-fetch') send('text/plain', 'seen');
    else if (path === '/fp') send('text/html', FINGERPRINT_PAGE);
    else if (path === '/fp.js') send('text/javascript', FINGERPRINTJS);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  frameOrigin = `http://${frameHost}:${port}`;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    headersOf: (path: string) => requests.findLast((entry) => entry.path === path)?.headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Asks for every client hint, as a site that wants them would. */
const ACCEPT_CH =
  'Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Arch, Sec-CH-UA-Bitness, Sec-CH-UA-Model';

const FINGERPRINT_PAGE = `<!doctype html><html><body><script src="/fp.js"></script><script>
window.visitor = FingerprintJS.load({ monitoring: false }).then((agent) => agent.get()).then((result) => ({
  visitorId: result.visitorId,
  components: Object.fromEntries(Object.entries(result.components).map(([name, part]) => [name, JSON.stringify(part.value ?? null)])),
}));
</script></body></html>`;
