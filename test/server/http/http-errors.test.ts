/**
 * The answers no route gives: a known path with another method (405 with `Allow`), and requests Node's HTTP
 * parser refuses before the app sees them. Every one is problem details.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../../lib/api/endpoints';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let request: ReturnType<typeof requester>;

beforeAll(async () => {
  service = await startServiceInProcess();
  request = requester(service.baseUrl, await service.createKey('enterprise'));
});
afterAll(() => service?.close());

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = await response.json();
  expect(body).toMatchObject({
    status,
    code,
    type: `urn:profile-pilot:problem:${code}`,
    title: expect.any(String),
  });
  expect(body.detail).toEqual(expect.any(String));
  return body;
}

describe('a known path with another method', () => {
  it('answers GET /v1/sessions/start and /stop 405 with Allow, not 404 for a session named "start"', async () => {
    const start = await request('GET', '/v1/sessions/start');
    expect(start.headers.get('allow')).toBe('POST');
    const body = await expectProblem(start, 405, 'method_not_allowed');
    expect(body.detail).toBe('GET is not allowed on /v1/sessions/start; use POST.');
    const stop = await request('GET', '/v1/sessions/stop');
    expect(stop.headers.get('allow')).toBe('DELETE');
    await expectProblem(stop, 405, 'method_not_allowed');
  });

  /** Each path of the table (and the public ones) with the methods it has. */
  const paths = new Map<string, Set<string>>([
    ['/healthz', new Set(['GET'])],
    ['/v1/openapi.json', new Set(['GET'])],
  ]);
  for (const endpoint of Object.values(endpoints)) {
    const path = endpoint.path.replace(/:\w+/g, 'x_1');
    paths.set(path, (paths.get(path) ?? new Set()).add(endpoint.method));
  }
  const cases = [...paths].flatMap(([path, methods]) =>
    ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
      .filter((method) => !methods.has(method))
      .map((method) => ({ method, path, allow: [...methods].sort().join(', ') })),
  );

  it.each(cases)('answers $method $path 405 with Allow: $allow', async ({ method, path, allow }) => {
    const response = await request(method, path, {
      headers: JSON_HEADERS,
      body: method === 'GET' ? undefined : '{}',
    });
    expect(response.headers.get('allow')).toBe(allow);
    await expectProblem(response, 405, 'method_not_allowed');
  });

  it('still reads a session by id, and answers 404 for an unknown one', async () => {
    await expectProblem(await request('GET', '/v1/sessions/ses_unknown'), 404, 'not_found');
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The service closed the connection after the answer. */
  closed: boolean;
}

/** Sends `raw` bytes on a new connection and reads the answer until the service closes it (or 5 s pass). */
function rawRequest(raw: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(service.port, '127.0.0.1', () => socket.write(raw));
    let received = '';
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), closed });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, 5000);
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => {
      closed = true;
    });
    socket.on('close', finish);
    socket.on('error', (error) => (received ? undefined : reject(error)));
  });
}

describe('requests the HTTP parser refuses', () => {
  const cases: { name: string; raw: string; status: number; code: string; detail: RegExp }[] = [
    {
      name: 'headers over 16 KiB',
      raw: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      status: 431,
      code: 'headers_too_large',
      detail: /larger than 16 KiB/,
    },
    {
      name: 'a control character in a header value',
      raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /control character/,
    },
    {
      name: 'a bare carriage return in a header value (an attempt to slip in another header)',
      raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\rX-Injected: 1\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /./,
    },
    {
      name: 'Content-Length with Transfer-Encoding',
      raw: 'POST /v1/profiles HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /both Content-Length and Transfer-Encoding/,
    },
    {
      name: 'Transfer-Encoding with Content-Length',
      raw: 'POST /v1/profiles HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /both Content-Length and Transfer-Encoding/,
    },
    {
      name: 'an HTTP/1.1 request without Host',
      raw: 'GET /healthz HTTP/1.1\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /must have a Host header/,
    },
    {
      name: 'a request line that is not HTTP',
      raw: 'HELLO THERE\r\n\r\n',
      status: 400,
      code: 'malformed_request',
      detail: /not valid HTTP\/1\.1/,
    },
  ];

  it.each(cases)('answers $name with $status and problem details, then closes', async (one) => {
    const answer = await rawRequest(one.raw);
    expect(answer.status).toBe(one.status);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers.connection).toBe('close');
    const problem = JSON.parse(answer.body);
    expect(problem).toMatchObject({
      type: `urn:profile-pilot:problem:${one.code}`,
      title: expect.any(String),
      status: one.status,
      code: one.code,
      detail: expect.stringMatching(one.detail),
    });
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(answer.closed).toBe(true);
  });

  it('still answers HTTP/1.0 without Host, and keeps serving', async () => {
    const answer = await rawRequest('GET /healthz HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
  });
});
