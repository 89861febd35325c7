import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SocksClient } from 'socks';
import { EgressRefused } from '../core/domain-errors';
import type { EgressPolicy } from '../core/egress-policy';
import { EgressUnresolved, resolveAllowed } from '../network/egress-lookup';
import { HeadTooLarge, readHeadBytes } from './relay-head';
import type { ProxySettings } from './settings';

/** How long reaching a destination (or the profile's proxy) may take before the browser hears 504. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Why the relay could not reach a destination, with the status the browser hears. Beyond 504, the 59x statuses
 * are the ones proxy relays use (proxy-check.ts reads them as sentences): 590 the proxy refused the
 * destination, 594 refused connection, 595 reset, 596 broken pipe, 597 the proxy refused its credentials, 599
 * any other failure of the proxy.
 */
export class RelayFailure extends Error {
  override name = 'RelayFailure';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_OF_CODE: Record<string, number> = {
  ECONNREFUSED: 594,
  ECONNRESET: 595,
  EPIPE: 596,
  ETIMEDOUT: 504,
};

/** Any failure to reach a destination as the answer the browser gets; a policy refusal passes as it is. */
export function asRelayFailure(error: unknown): Error {
  if (error instanceof RelayFailure || error instanceof EgressRefused) return error;
  if (error instanceof EgressUnresolved) return new RelayFailure(502, error.message);
  const { code, message = 'The destination could not be reached.' } = error as {
    code?: string;
    message?: string;
  };
  if (message === 'Socks5 Authentication failed') return new RelayFailure(597, message);
  if (message === 'Proxy connection timed out') return new RelayFailure(504, message);
  // The socks client's errors carry no code: the socket's error is in the message, or the proxy's refusal.
  if (/^Socks[45] Proxy rejected connection/.test(message)) return new RelayFailure(590, message);
  if (message === 'Socket closed') return new RelayFailure(595, message);
  const status = STATUS_OF_CODE[code ?? /\b(E[A-Z]+)\b/.exec(message)?.[1] ?? ''];
  return new RelayFailure(status ?? 599, message);
}

/** How a relay reaches the world: straight, or through the profile's proxy, by the rules of the egress policy. */
export interface Upstream {
  /** A byte stream to `host:port`, the policy checked: what a CONNECT tunnel or a plain request is sent over. */
  tunnel(host: string, port: number): Promise<Socket>;
  /**
   * For an HTTP(S) proxy: a connection to the proxy itself, which a plain request is sent to in absolute form
   * with `credentialLines` (a proxy's 407 comes as the first answer on it). Null when plain requests tunnel too.
   */
  proxy: { open(): Promise<Socket>; credentialLines: string[] } | null;
}

export function upstreamFor(settings: ProxySettings | null, policy: EgressPolicy): Upstream {
  if (settings === null)
    return {
      async tunnel(host, port) {
        const { address } = await resolveAllowed(policy, host);
        return connected(netConnect({ host: address, port }));
      },
      proxy: null,
    };
  if (settings.scheme.startsWith('socks')) return socksUpstream(settings, policy);
  return httpUpstream(settings, policy);
}

function socksUpstream(settings: ProxySettings, policy: EgressPolicy): Upstream {
  return {
    async tunnel(host, port) {
      const { address } = await resolveAllowed(policy, settings.host);
      const { socket } = await SocksClient.createConnection({
        command: 'connect',
        destination: { host: host.replace(/^\[(.*)\]$/, '$1'), port },
        proxy: {
          host: address,
          port: settings.port,
          type: settings.scheme === 'socks4' ? 4 : 5,
          ...(settings.username === null ? {} : { userId: settings.username }),
          ...(settings.password === null ? {} : { password: settings.password }),
        },
        timeout: CONNECT_TIMEOUT_MS,
      });
      socket.setNoDelay(true);
      return socket;
    },
    proxy: null,
  };
}

function httpUpstream(settings: ProxySettings, policy: EgressPolicy): Upstream {
  const hasCredentials = settings.username !== null || settings.password !== null;
  const credentialLines = hasCredentials
    ? [
        `Proxy-Authorization: Basic ${Buffer.from(`${settings.username ?? ''}:${settings.password ?? ''}`).toString('base64')}`,
      ]
    : [];
  /** The proxy, connected by the address checked; over TLS its name is what the certificate must hold. */
  const open = async () => {
    const { address } = await resolveAllowed(policy, settings.host);
    const options = { host: address, port: settings.port };
    if (settings.scheme === 'https')
      return connected(tlsConnect({ ...options, servername: settings.host }), 'secureConnect');
    return connected(netConnect(options));
  };
  return {
    async tunnel(host, port) {
      const socket = await open();
      const authority = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
      socket.write(
        [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, ...credentialLines, '', ''].join('\r\n'),
      );
      try {
        await readTunnelAnswer(socket);
      } catch (error) {
        socket.destroy();
        throw error;
      }
      return socket;
    },
    proxy: { open, credentialLines },
  };
}

/** Waits for the proxy's answer to CONNECT: 200 opens the tunnel, 407 is the credentials, the rest a refusal. */
async function readTunnelAnswer(socket: Socket): Promise<void> {
  const read = await readHeadBytes(socket, Buffer.alloc(0)).catch((error: unknown) => {
    throw error instanceof HeadTooLarge ? new RelayFailure(599, 'The proxy’s answer is too large.') : error;
  });
  if (read === null) throw new RelayFailure(595, 'The proxy closed the connection.');
  if (read.rest.length > 0) socket.unshift(read.rest);
  const status = proxyStatus(read.head);
  if (status === 200) return;
  if (status === 407) throw new RelayFailure(597, 'The proxy refused its user name or password (407).');
  throw new RelayFailure(590, `The proxy answered ${status} to the tunnel.`);
}

/** The status of a proxy's answer from its first bytes, or null if they are not an HTTP/1 status line. */
export function proxyStatus(bytes: Buffer): number | null {
  const match = /^HTTP\/1\.\d (\d{3})/.exec(bytes.subarray(0, 12).toString('latin1'));
  return match ? Number(match[1]) : null;
}

/**
 * Resolves with the socket once it is connected (or its TLS set up), rejects on its error or after the timeout.
 * Without Nagle's delay: a head and its body are separate writes, and the second must not wait for an ACK.
 */
function connected<T extends Socket>(socket: T, event: 'connect' | 'secureConnect' = 'connect'): Promise<T> {
  socket.setNoDelay(true);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      fail(Object.assign(new Error('The destination did not answer in time.'), { code: 'ETIMEDOUT' })),
    );
    socket.once('error', fail);
    socket.once(event, () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}
