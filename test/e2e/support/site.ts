import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { cleanupStack } from './cleanup';

export const SITE_TITLE = 'Spring catalogue';

/** A shop page whose title scripts read and whose look makes a screenshot worth a thumbnail. */
const PAGE = `<!doctype html>
<html lang="en">
<title>${SITE_TITLE}</title>
<style>
  body { margin: 0; font: 18px system-ui, sans-serif; color: #202124; }
  header { background: #188038; color: #fff; padding: 32px 40px; }
  h1 { margin: 0; font-size: 40px; }
  ul { display: flex; gap: 24px; padding: 32px 40px; margin: 0; list-style: none; }
  li { flex: 1; padding: 24px; border-radius: 12px; background: #e6f4ea; }
  b { display: block; font-size: 28px; color: #188038; }
</style>
<header><h1>${SITE_TITLE}</h1><p>Seeds, bulbs and tools for the new season.</p></header>
<ul>
  <li><b>€4.50</b>Tulip bulbs</li>
  <li><b>€2.90</b>Basil seeds</li>
  <li><b>€18.00</b>Hand trowel</li>
</ul>
</html>`;

/** Serves the page on 127.0.0.1 at any path. */
export async function startSite() {
  const server = createServer((_request, response) => {
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `handler` on 127.0.0.1 until `cleanup` runs; gives the origin. */
export async function serveOnLoopback(
  cleanup: ReturnType<typeof cleanupStack>,
  handler: RequestListener,
): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(server, (it) => new Promise((resolve) => it.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What a proxy check is answered: the exit IP and its time zone. */
export interface Exit {
  ip: string;
  timezone: string;
}

/**
 * Answers as ipinfo.io does (what proxy checks, and starts that follow the proxy's location, ask through the
 * proxy): the caller's IP and time zone, as `exitOf` gives them for the user of the proxy that relayed the
 * question (its `Via`, as test proxies say it). Gives the address to set as PROXY_CHECK_URL.
 */
export async function serveCheckAddress(
  cleanup: ReturnType<typeof cleanupStack>,
  exitOf: (proxyUser: string | undefined) => Exit,
): Promise<string> {
  const origin = await serveOnLoopback(cleanup, (request, response) => {
    const proxyUser = /^1\.1 (.+)$/.exec(String(request.headers.via ?? ''))?.[1];
    response.setHeader('Content-Type', 'application/json').end(JSON.stringify(exitOf(proxyUser)));
  });
  return `${origin}/json`;
}
