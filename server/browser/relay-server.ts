import { timingSafeEqual } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { EgressRefused } from '../core/domain-errors';
import type { EgressPolicy } from '../core/egress-policy';

import { peerInProcessGroup } from '../network/socket-owner';
import {
  basicCredentials,
  bodyLength,
  HeadTooLarge,
  MalformedHead,
  nextChunk,
  type RequestHead,
  readHead,
  relayAnswer,
  rewriteHead,
} from './relay-head';
import { type ConnectionLimits, connectionLimits, RELAY_LIMITS, type RelayLimits } from './relay-limits';
import { asRelayFailure, proxyStatus, RelayFailure, type Upstream, upstreamFor } from './relay-upstream';
import type { ProxySettings } from './settings';

export interface RelayServerOptions {
  /** The profile's own proxy, or null to go out directly. */
  upstream: ProxySettings | null;
  policy: EgressPolicy;
  /** What a caller presents as the proxy password to be served. */
  secret: string;
  /**
   * Told of each destination the policy refused, by the host the browser named; the browser hears the 403 only
   * once this settles, so whoever asks why a page did not load already knows.
   */
  onRefused(host: string, detail: string): Promise<void>;
  /** RELAY_LIMITS when left out. */
  limits?: RelayLimits;
}

export interface RelayServer {
  port: number;
  /** From now on a caller of this process group (the session's browser) without the secret is asked for it. */
  challenge(processGroup: number): void;
  close(): Promise<void>;
}

/** The user name a caller presents with the secret. */
export const RELAY_USERNAME = 'session';

/**
 * A session's relay, run on a relay thread: it serves only a caller that presents the session's secret as proxy
 * credentials, so neither another session's browser nor any other local program can borrow the profile's proxy
 * or its credentials. A caller without it is refused (403), except its own browser, which is asked for it (407:
 * the service answers over DevTools, see relay-credentials.ts), which the kernel's socket table tells apart: that
 * look-up is made only for a connection without the secret (the first of each browser context), never for the
 * browser's traffic once it has the secret. It resolves each destination once and refuses the ones the egress
 * policy forbids, redirects included (each is a new request through here), and adds the profile's proxy
 * credentials, which Chromium ignores in --proxy-server. It reads only request heads: answers and bodies pass
 * as bytes (serveConnection below). Throws an Error whose message is a sentence when the settings cannot work.
 */
export async function startRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  if (options.upstream) checkUpstream(options.upstream);
  const upstream = upstreamFor(options.upstream, options.policy);
  const secret = Buffer.from(`${RELAY_USERNAME}:${options.secret}`);
  let isOwner: ((socket: Socket) => boolean) | null = null;
  const verdicts = new WeakMap<Socket, boolean>();
  const isOwnBrowser = (socket: Socket) => {
    if (isOwner === null) return false;
    let own = verdicts.get(socket);
    if (own === undefined) {
      own = isOwner(socket);
      verdicts.set(socket, own);
    }
    return own;
  };
  const refusal = (head: RequestHead, client: Socket): Buffer | null => {
    const given = basicCredentials(head);
    if (given !== null && given.length === secret.length && timingSafeEqual(given, secret)) return null;
    if (!isOwnBrowser(client)) return relayAnswer(403, 'This relay serves one browser only.');
    return relayAnswer(407, 'This relay asks its browser for its credentials.', [
      'Proxy-Authenticate: Basic realm="session relay"',
    ]);
  };
  const reach = async (host: string, open: () => Promise<Socket>): Promise<Socket> => {
    try {
      return await open();
    } catch (error) {
      const failure = asRelayFailure(error);
      if (!(failure instanceof EgressRefused)) throw failure;
      await options.onRefused(host, failure.message);
      throw new RelayFailure(403, failure.message);
    }
  };

  const clients = new Set<Socket>();
  const limits = connectionLimits(options.limits ?? RELAY_LIMITS);
  const server = createServer({ noDelay: true }, (client) => {
    clients.add(client);
    client.once('close', () => clients.delete(client));
    limits.admit(client);
    void serveConnection(client, { upstream, refusal, reach, limits });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as { port: number }).port,
    challenge(group) {
      isOwner = (socket) => peerInProcessGroup(socket, group);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const client of clients) client.destroy();
      }),
  };
}

interface Relay {
  upstream: Upstream;
  /** The relay's answer to a request that does not present the secret, or null to serve it. */
  refusal(head: RequestHead, client: Socket): Buffer | null;
  /** Runs `open`, telling of a policy refusal for `host` before it throws. */
  reach(host: string, open: () => Promise<Socket>): Promise<Socket>;
  limits: ConnectionLimits;
}

/** Where a kept-alive connection's plain requests go, and the key that says whether the next may go there too. */
interface Destination {
  key: string;
  socket: Socket;
}

/**
 * One browser connection: request after request, each head read and checked (credentials, then the policy for
 * its destination), each body passed on by its length; a CONNECT, an upgrade or a body without a length hands
 * the rest of the connection over as bytes. A plain request to the destination of the one before it reuses its
 * connection.
 */
async function serveConnection(client: Socket, relay: Relay): Promise<void> {
  let destination = null as Destination | null;
  const leave = () => {
    if (destination === null) return;
    destination.socket.unpipe(client);
    destination.socket.destroy();
    destination = null;
  };
  client.setNoDelay(true);
  client.on('error', () => {});
  client.once('close', leave);
  let rest: Buffer = Buffer.alloc(0);
  try {
    for (;;) {
      const read = await readHead(client, rest);
      if (read === null) break;
      const { head } = read;
      rest = read.rest;
      const refused = relay.refusal(head, client);
      if (refused !== null) return void client.end(refused);
      relay.limits.proven(client);
      if (head.method === 'CONNECT') {
        const { hostname, port } = authorityOf(head.target);
        const tunnel = await relay.reach(hostname, () => relay.upstream.tunnel(hostname, port));
        leave();
        relay.limits.unlimited(client);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) tunnel.write(rest);
        return joinBothWays(client, tunnel);
      }
      const { hostname, port, path } = absoluteTarget(head.target);
      const length = bodyLength(head);
      const proxy = relay.upstream.proxy;
      const key = proxy ? 'proxy' : `${hostname}:${port}`;
      if (destination?.key !== key || destination.socket.destroyed) {
        leave();
        const socket = await relay.reach(
          hostname,
          proxy ? proxy.open : () => relay.upstream.tunnel(hostname, port),
        );
        if (client.destroyed) return void socket.destroy();
        destination = { key, socket };
        passAnswers(socket, client, proxy !== null);
      }
      const { socket } = destination;
      socket.write(proxy ? rewriteHead(head, head.target, proxy.credentialLines) : rewriteHead(head, path));
      if (length === 'until close') {
        relay.limits.unlimited(client);
        if (rest.length > 0) socket.write(rest);
        return void client.pipe(socket);
      }
      rest = await passBody(client, socket, rest, length);
    }
    destination?.socket.end();
  } catch (error) {
    client.end(answerFor(error));
  }
}

/** The destination's answers to the browser as bytes; through an HTTP proxy, its first tells whether it took the credentials. */
function passAnswers(from: Socket, to: Socket, throughProxy: boolean): void {
  from.on('error', () => to.destroy());
  if (!throughProxy) return void from.pipe(to);
  void nextChunk(from).then((first) => {
    if (first === null) return void to.end();
    if (proxyStatus(first) === 407) {
      from.destroy();
      return void to.end(
        answerFor(new RelayFailure(597, 'The proxy refused its user name or password (407).')),
      );
    }
    to.write(first);
    from.pipe(to);
  });
}

/** Passes `length` bytes of body on; returns what the browser sent beyond them (its next request). */
async function passBody(from: Socket, to: Socket, already: Buffer, length: number): Promise<Buffer> {
  let remaining = length;
  let buffered = already;
  for (;;) {
    if (buffered.length >= remaining) {
      if (remaining > 0) to.write(buffered.subarray(0, remaining));
      return buffered.subarray(remaining);
    }
    remaining -= buffered.length;
    if (!to.write(buffered)) await new Promise((drained) => to.once('drain', drained).once('close', drained));
    const chunk = await nextChunk(from);
    if (chunk === null) throw new RelayFailure(400, 'The request ended before its body.');
    buffered = chunk;
  }
}

function joinBothWays(client: Socket, tunnel: Socket): void {
  if (client.destroyed) return void tunnel.destroy();
  tunnel.on('error', () => client.destroy());
  client.once('close', () => tunnel.destroy());
  tunnel.once('close', () => client.destroy());
  client.pipe(tunnel);
  tunnel.pipe(client);
}

const AUTHORITY = /^(\[[0-9a-fA-F:.]+\]|[^\s:@/?#[\]]+):(\d{1,5})$/;

/** A CONNECT target's host (as a URL would spell it) and port. */
function authorityOf(target: string): { hostname: string; port: number } {
  const match = AUTHORITY.exec(target);
  const port = Number(match?.[2]);
  if (!match?.[1] || port < 1 || port > 65535)
    throw new MalformedHead('The CONNECT target is not host:port.');
  return { hostname: canonicalHost(match[1]), port };
}

/** A proxied request's destination and the path it asks for there, as written (an http URL only). */
function absoluteTarget(target: string): { hostname: string; port: number; path: string } {
  const match = /^http:\/\/([^/?#]+)([^#]*)/i.exec(target);
  if (!match?.[1]) throw new MalformedHead('This relay forwards http:// addresses and CONNECT tunnels only.');
  const withPort = AUTHORITY.exec(match[1]);
  const hostname = withPort?.[1] ?? match[1];
  const port = withPort ? Number(withPort[2]) : 80;
  if (port < 1 || port > 65535 || /[\s@]/.test(hostname))
    throw new MalformedHead('The address’s host is not one.');
  const path = match[2] ?? '';
  return { hostname: canonicalHost(hostname), port, path: path.startsWith('/') ? path : `/${path}` };
}

/** The host as the browser resolves it: lower case, an IP in any spelling as its usual one. */
function canonicalHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    throw new MalformedHead('The address’s host is not one.');
  }
}

function answerFor(error: unknown): Buffer {
  if (error instanceof HeadTooLarge) return relayAnswer(431, error.message);
  if (error instanceof MalformedHead) return relayAnswer(400, error.message);
  const failure = asRelayFailure(error);
  return relayAnswer(failure instanceof RelayFailure ? failure.status : 403, failure.message);
}

function checkUpstream(proxy: ProxySettings): void {
  if ((proxy.scheme === 'http' || proxy.scheme === 'https') && proxy.username?.includes(':')) {
    throw new Error('The proxy user name contains a colon, which HTTP proxy authentication cannot carry.');
  }
  if (proxy.scheme === 'socks4' && proxy.password !== null) {
    throw new Error('SOCKS4 proxies take a user name but no password; use socks5 for a password.');
  }
}
