import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_USERNAME, type RelayServer, startRelayServer } from '../../../server/browser/relay-server';
import type { ProxySettings } from '../../../server/browser/settings';
import { LOOPBACK_ALLOWED, startAuthenticatingProxy } from '../../support/browser-fixtures';

/* The relay reads request heads and passes the rest as bytes: every head on a kept-alive connection is checked
   (credentials and the egress policy) on its own, a body is never read as a request, and answers pass untouched. */

const SECRET = 'the-relay-secret';
const AUTHORIZATION = `Proxy-Authorization: Basic ${Buffer.from(`${RELAY_USERNAME}:${SECRET}`).toString('base64')}`;
/** Link-local: refused by any policy that allows only loopback. */
const FORBIDDEN = '169.254.169.254';

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: IncomingHttpHeaders;
  connection: number;
}

let site: Server;
let siteHost: string;
const seen: Seen[] = [];
let connections = 0;
let echo: ReturnType<typeof createTcpServer>;
let echoPort: number;

beforeAll(async () => {
  site = createServer((request, response) => {
    const connection = (request.socket as Socket & { number?: number }).number ?? 0;
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body,
        headers: request.headers,
        connection,
      });
      response.setHeader('Content-Type', 'text/plain');
      response.end(`answer to ${request.method} ${request.url}`);
    });
  });
  // An upgrade to a protocol that echoes whatever follows its 101.
  site.on('upgrade', (_request, socket: Socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  site.on('connection', (socket: Socket & { number?: number }) => {
    socket.number = ++connections;
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  echo = createTcpServer((socket) => socket.pipe(socket));
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  echoPort = (echo.address() as AddressInfo).port;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await new Promise((resolve) => echo.close(resolve));
});

async function withRelay(
  test: (relay: RelayServer, refused: string[]) => Promise<void>,
  upstream: ProxySettings | null = null,
): Promise<void> {
  const refused: string[] = [];
  const relay = await startRelayServer({
    upstream,
    policy: LOOPBACK_ALLOWED,
    secret: SECRET,
    onRefused: async (host) => {
      refused.push(host);
    },
  });
  try {
    await test(relay, refused);
  } finally {
    await relay.close();
  }
}

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** A raw connection to the relay, written to as a browser would and read answer by answer. */
async function rawClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let closed = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.on('error', () => {});
  const more = () => new Promise<void>((resolve) => waiters.push(resolve));
  return {
    socket,
    send: (text: string) => socket.write(text),
    get closed() {
      return closed;
    },
    /** The next answer, by its Content-Length. */
    async answer(): Promise<Answer> {
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end >= 0) {
          const head = received.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (received.length >= end + 4 + length) {
            const body = received.subarray(end + 4, end + 4 + length).toString();
            received = received.subarray(end + 4 + length);
            return { status: Number(head.split(' ')[1]), head, body };
          }
        }
        if (closed) throw new Error(`the relay closed the connection; it had sent: ${received}`);
        await more();
      }
    },
    /** Whatever bytes come next, at least `size` of them. */
    async bytes(size: number): Promise<string> {
      while (received.length < size && !closed) await more();
      const text = received.toString();
      received = Buffer.alloc(0);
      return text;
    },
    async ended(): Promise<void> {
      while (!closed) await more();
    },
  };
}

const get = (host: string, path = '/', lines: string[] = [AUTHORIZATION]) =>
  [
    `GET http://${host}${path} HTTP/1.1`,
    `Host: ${host}`,
    'Proxy-Connection: keep-alive',
    ...lines,
    '',
    '',
  ].join('\r\n');

describe('the relay’s forwarding', () => {
  it('sends a kept-alive connection’s requests to one host over one connection, in origin form, without its own headers', async () => {
    await withRelay(async (relay) => {
      const client = await rawClient(relay.port);
      const before = seen.length;
      client.send(get(siteHost, '/first?a=1'));
      expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to GET /first?a=1' });
      client.send(get(siteHost, '/second'));
      expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to GET /second' });
      const [first, second] = seen.slice(before);
      expect(first?.connection).toBe(second?.connection);
      expect(first?.headers['proxy-authorization']).toBeUndefined();
      expect(first?.headers['proxy-connection']).toBeUndefined();
      expect(first?.headers.host).toBe(siteHost);
      client.socket.destroy();
    });
  });

  it('checks every request of a kept-alive connection: a later one to a forbidden address or without the secret is refused', async () => {
    await withRelay(async (relay, refused) => {
      const client = await rawClient(relay.port);
      client.send(get(siteHost));
      expect((await client.answer()).status).toBe(200);
      client.send(get(FORBIDDEN, '/latest/meta-data/'));
      const answer = await client.answer();
      expect(answer.status).toBe(403);
      expect(answer.body).toContain(FORBIDDEN);
      expect(refused).toEqual([FORBIDDEN]);
      await client.ended();

      const other = await rawClient(relay.port);
      other.send(get(siteHost));
      expect((await other.answer()).status).toBe(200);
      const before = seen.length;
      other.send(get(siteHost, '/no-secret', []));
      expect((await other.answer()).status).toBe(403);
      expect(seen.length).toBe(before);
    });
  });

  it('passes a body by its length and never reads it as a request, then serves the request after it', async () => {
    await withRelay(async (relay, refused) => {
      const client = await rawClient(relay.port);
      const smuggled = get(FORBIDDEN, '/latest/meta-data/');
      const before = seen.length;
      // The body arrives in pieces, with the next request right behind it.
      const post = [`POST http://${siteHost}/upload HTTP/1.1`, `Host: ${siteHost}`, AUTHORIZATION];
      client.send(`${post.join('\r\n')}\r\nContent-Length: ${Buffer.byteLength(smuggled)}\r\n\r\n`);
      client.send(smuggled.slice(0, 10));
      await new Promise((settle) => setTimeout(settle, 50));
      client.send(smuggled.slice(10) + get(siteHost, '/after'));
      expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to POST /upload' });
      expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to GET /after' });
      expect(seen.slice(before).map(({ method, url, body }) => ({ method, url, body }))).toEqual([
        { method: 'POST', url: '/upload', body: smuggled },
        { method: 'GET', url: '/after', body: '' },
      ]);
      expect(refused).toEqual([]);
      client.socket.destroy();
    });
  });

  it('passes a chunked body whole, and ends the connection with the answer', async () => {
    await withRelay(async (relay) => {
      const client = await rawClient(relay.port);
      const before = seen.length;
      client.send(
        [
          `POST http://${siteHost}/chunked HTTP/1.1`,
          `Host: ${siteHost}`,
          AUTHORIZATION,
          'Transfer-Encoding: chunked',
          '',
          '5',
          'hello',
          '0',
          '',
          '',
        ].join('\r\n'),
      );
      expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to POST /chunked' });
      expect(seen[before]).toMatchObject({ method: 'POST', body: 'hello' });
      client.socket.destroy();
    });
  });

  it('opens CONNECT tunnels that carry bytes both ways, and refuses one to a forbidden address', async () => {
    await withRelay(async (relay, refused) => {
      const client = await rawClient(relay.port);
      client.send(
        `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\n${AUTHORIZATION}\r\n\r\n`,
      );
      expect((await client.answer()).status).toBe(200);
      client.send('ping through the tunnel');
      expect(await client.bytes('ping through the tunnel'.length)).toBe('ping through the tunnel');
      client.socket.destroy();

      const refusedClient = await rawClient(relay.port);
      refusedClient.send(
        `CONNECT ${FORBIDDEN}:443 HTTP/1.1\r\nHost: ${FORBIDDEN}:443\r\n${AUTHORIZATION}\r\n\r\n`,
      );
      expect((await refusedClient.answer()).status).toBe(403);
      expect(refused).toEqual([FORBIDDEN]);
    });
  });

  it('closes a tunnel whose browser left while it was being opened', async () => {
    // A proxy that answers a CONNECT only once the browser has left: the tunnel is still being opened then, however
    // slow the machine.
    let browserLeft: () => void = () => {};
    const left = new Promise<void>((resolve) => {
      browserLeft = resolve;
    });
    let asked: (socket: Socket) => void = () => {};
    const proxySide = new Promise<Socket>((resolve) => {
      asked = resolve;
    });
    const slowProxy = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        asked(socket);
        void left.then(() => socket.write('HTTP/1.1 200 OK\r\n\r\n'));
      });
    });
    slowProxy.listen(0, '127.0.0.1');
    await once(slowProxy, 'listening');
    const proxyPort = (slowProxy.address() as AddressInfo).port;
    try {
      const upstream: ProxySettings = {
        scheme: 'http',
        host: '127.0.0.1',
        port: proxyPort,
        username: null,
        password: null,
      };
      await withRelay(async (relay) => {
        const client = await rawClient(relay.port);
        client.send(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\n${AUTHORIZATION}\r\n\r\n`);
        const socket = await proxySide;
        const closed = once(socket, 'close');
        client.socket.destroy();
        browserLeft();
        // A tunnel left open would hold this until the test's timeout.
        await closed;
      }, upstream);
    } finally {
      slowProxy.close();
    }
  });

  it('reads any spelling of a forbidden address as that address', async () => {
    await withRelay(async (relay, refused) => {
      for (const spelling of ['2852039166', '0xa9.0xfe.0xa9.0xfe', '[::ffff:169.254.169.254]']) {
        const client = await rawClient(relay.port);
        client.send(get(spelling));
        expect((await client.answer()).status).toBe(403);
      }
      expect(refused).toHaveLength(3);
    });
  });

  it('answers a sentence for what it cannot forward: a malformed or oversized head, a non-http address', async () => {
    await withRelay(async (relay) => {
      const cases: [string, number][] = [
        ['NONSENSE\r\n\r\n', 400],
        [`GET https://${siteHost}/ HTTP/1.1\r\n${AUTHORIZATION}\r\n\r\n`, 400],
        [`GET /relative HTTP/1.1\r\n${AUTHORIZATION}\r\n\r\n`, 400],
        [`CONNECT nowhere HTTP/1.1\r\n${AUTHORIZATION}\r\n\r\n`, 400],
        [`GET http://${siteHost}/ HTTP/1.1\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`, 431],
      ];
      for (const [request, status] of cases) {
        const client = await rawClient(relay.port);
        client.send(request);
        const answer = await client.answer();
        expect(answer.status).toBe(status);
        expect(answer.body.length).toBeGreaterThan(10);
        await client.ended();
      }
    });
  });

  it('refuses a head a site could frame or read otherwise than the relay does, and the site sees none of them', async () => {
    await withRelay(async (relay) => {
      const post = (lines: string[]) =>
        [
          `POST http://${siteHost}/ambiguous HTTP/1.1`,
          `Host: ${siteHost}`,
          AUTHORIZATION,
          ...lines,
          '',
          'hello',
        ].join('\r\n');
      const before = connections;
      const cases = [
        post(['Content-Length: 5', 'Content-Length: 50']),
        post(['Content-Length: 5, 50']),
        post(['Content-Length: 5, 5']),
        post(['Content-Length: five']),
        post(['Content-Length : 5']),
        post(['X-Note: a', ' folded onto the line above', 'Content-Length: 5']),
        post(['X-Note: a\nContent-Length: 50', 'Content-Length: 5']),
        `GET http://${siteHost}/a\nX-Hidden:1 HTTP/1.1\r\n${AUTHORIZATION}\r\n\r\n`,
      ];
      for (const request of cases) {
        const client = await rawClient(relay.port);
        client.send(request);
        expect((await client.answer()).status, request).toBe(400);
        expect(connections, request).toBe(before);
        await client.ended();
      }
      const same = await rawClient(relay.port);
      same.send(post(['Content-Length: 5']));
      expect(await same.answer()).toMatchObject({ status: 200, body: 'answer to POST /ambiguous' });
      same.socket.destroy();
    });
  });

  it('hands an upgraded connection over as bytes both ways', async () => {
    await withRelay(async (relay) => {
      const client = await rawClient(relay.port);
      client.send(get(siteHost, '/socket', [AUTHORIZATION, 'Connection: Upgrade', 'Upgrade: echo']));
      expect((await client.answer()).status).toBe(101);
      client.send('frames after the upgrade');
      expect(await client.bytes('frames after the upgrade'.length)).toBe('frames after the upgrade');
      client.socket.destroy();
    });
  });

  it('through an HTTP proxy: sends the proxy’s own credentials (never the relay’s), and answers 597 when the proxy refuses them', async () => {
    const proxy = await startAuthenticatingProxy('carol', 'right-pass');
    try {
      const settings = (password: string): ProxySettings => ({
        scheme: 'http',
        host: '127.0.0.1',
        port: proxy.port,
        username: 'carol',
        password,
      });
      await withRelay(async (relay) => {
        const client = await rawClient(relay.port);
        client.send(get(siteHost, '/via-proxy'));
        expect(await client.answer()).toMatchObject({ status: 200, body: 'answer to GET /via-proxy' });
        expect(proxy.seen.at(-1)).toEqual({ url: `http://${siteHost}/via-proxy`, authorized: true });
        client.socket.destroy();
      }, settings('right-pass'));
      await withRelay(async (relay) => {
        const client = await rawClient(relay.port);
        client.send(get(siteHost, '/via-proxy'));
        const answer = await client.answer();
        expect(answer.status).toBe(597);
        expect(answer.head).not.toContain('Proxy-Authenticate');
      }, settings('wrong-pass'));
    } finally {
      await proxy.close();
    }
  });
});
