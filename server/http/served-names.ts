import type { IncomingMessage, RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ProblemInit, problemBody } from './problem';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The names this service is served as: its loopback names with the port a request came in on, the address it
 * is bound to and the one its cluster peers use (NODE_URL), and the public addresses the operator set
 * (PUBLIC_URL). A request for any other `Host` comes from a name that merely resolves here (DNS rebinding: a web
 * page whose domain now points at 127.0.0.1) and is refused before anything else runs.
 */
export class ServedNames {
  private readonly boundNames: string[];
  private readonly fixedOrigins: string[];
  /** The origins by the port a request came in on (the service's own ports only): parsed once, not per request. */
  private readonly originsByPort = new Map<number, URL[]>();

  constructor(settings: { host: string; nodeUrl: string | null; publicUrls: string[] }) {
    this.boundNames = isWildcard(settings.host) ? [] : [bracketed(settings.host)];
    this.fixedOrigins = [...settings.publicUrls, ...(settings.nodeUrl ? [settings.nodeUrl] : [])];
  }

  /** Whether `Host` (as sent) names this service, for a request that arrived on `port`. */
  allowsHost(host: string, port: number): boolean {
    const asked = hostOf(`http://${host}`);
    return asked !== null && this.origins(port).some((origin) => sameHost(asked, origin));
  }

  /**
   * Whether `Origin` is one of this service's own origins and names the host the request was sent to (the page
   * and the endpoints it calls are one origin), for a request on `port`.
   */
  allowsOrigin(origin: string | undefined, host: string | undefined, port: number): boolean {
    if (origin === undefined || host === undefined || !URL.canParse(origin)) return false;
    const asked = new URL(origin);
    return (
      asked.host === host.toLowerCase() && this.origins(port).some((origin) => origin.origin === asked.origin)
    );
  }

  /** Its own names under either scheme (a proxy on the machine may add TLS), and the configured origins as set. */
  private origins(port: number): URL[] {
    let origins = this.originsByPort.get(port);
    if (!origins) {
      const own = [...LOOPBACK_NAMES, ...this.boundNames].flatMap((name) => [
        `http://${name}:${port}`,
        `https://${name}:${port}`,
      ]);
      origins = [...own, ...this.fixedOrigins].map((origin) => new URL(new URL(origin).origin));
      this.originsByPort.set(port, origins);
    }
    return origins;
  }
}

/** Whether a Host names this origin's host and port; a Host may leave out a default port (80 or 443). */
function sameHost(asked: URL, origin: URL): boolean {
  if (asked.hostname !== origin.hostname) return false;
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  const port = (url: URL, fallback: string) => url.port || fallback;
  return port(asked, '') === port(origin, '') || port(asked, defaultPort) === port(origin, defaultPort);
}

function hostOf(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  // A Host is a name and a port only: "a@b", "a/b" or "a?b" name something else.
  return url.username === '' && url.pathname === '/' && url.search === '' && url.hash === '' ? url : null;
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

const MISDIRECTED: ProblemInit = {
  status: 421,
  code: 'misdirected_request',
  detail:
    'This service does not answer to that host name. Use its own address; an operator serving it under another name lists that name in PUBLIC_URL.',
};

/** Wraps the server's request listener: a request for a name this service is not served as is 421. */
export function refuseForeignHosts(names: ServedNames, listener: RequestListener): RequestListener {
  return (request, response) => {
    if (allowed(names, request)) {
      toOriginForm(request);
      return listener(request, response);
    }
    const body = problemBody(MISDIRECTED);
    response.writeHead(421, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  };
}

/**
 * Reads a target in absolute form (`POST http://evil.test:9/v1/mcp`, which any client may send) as its path and
 * query only. The app builds the addresses it answers (a `cdp_url`, a live view) from the request's URL, which
 * must name the Host checked above, never a name the client wrote into the target.
 */
function toOriginForm(request: IncomingMessage): void {
  const target = request.url ?? '/';
  if (target.startsWith('/') || !URL.canParse(target)) return;
  const { pathname, search } = new URL(target);
  request.url = `${pathname}${search}`;
}

/**
 * For a WebSocket upgrade: answers 421 and closes when its Host is missing (an upgrade is HTTP/1.1, which always
 * names one) or is not one of the service's names.
 */
export function refusedForeignHost(names: ServedNames, request: IncomingMessage, socket: Duplex): boolean {
  if (request.headers.host !== undefined && allowed(names, request)) return false;
  const body = problemBody(MISDIRECTED);
  socket.end(
    `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  return true;
}

/** HTTP/1.0 may come without Host (no browser sends one so): it names no other host, so it is served. */
function allowed(names: ServedNames, request: IncomingMessage): boolean {
  const { host } = request.headers;
  return host === undefined || names.allowsHost(host, request.socket.localPort ?? 0);
}
