import type { RequestListener, Server } from 'node:http';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../core/log';
import { type ProblemInit, problemBody } from './problem';

type ParserError = NodeJS.ErrnoException & { reason?: string };

/**
 * Answers requests that Node's HTTP parser refuses before any route sees them (headers over the size limit,
 * a control character in a header, Content-Length with Transfer-Encoding, a broken request line, a request
 * that does not arrive in time) with problem details, like every other error of the service, instead of
 * Node's bare status line. The connection is closed after the answer: the parser cannot find the next request.
 */
export function answerClientErrors(server: Server, log: Logger): void {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    // Gone, or a response of this connection already under way: nothing can be said any more.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const problem = problemOf(error, maxHeaderSize);
    log.info('refused a malformed request', { status: problem.status, parser_error: error.code });
    const body = problemBody(problem);
    socket.end(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

function problemOf(error: ParserError, headerLimit: number): ProblemInit {
  // Either order of the two headers (llhttp's codes differ by which came first).
  if (/Content-Length/.test(error.reason ?? '') && /Transfer-Encoding/.test(error.reason ?? ''))
    return malformed('The request has both Content-Length and Transfer-Encoding; send only one of them.');
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        detail: `The request's headers are larger than ${headerLimit / 1024} KiB together; send fewer or shorter ones.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        detail: 'The request did not arrive in full in time; send it again.',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'payload_too_large',
        detail: 'The chunk extensions of the request body are too large.',
      };
    case 'HPE_INVALID_HEADER_TOKEN':
      return malformed(
        'A header of the request holds a character headers cannot have (a control character such as a line break, or a space in its name).',
      );
    default:
      return malformed(`The request is not valid HTTP/1.1${error.reason ? ` (${error.reason})` : ''}.`);
  }
}

function malformed(detail: string): ProblemInit {
  return { status: 400, code: 'malformed_request', detail };
}

/**
 * Wraps the server's request listener: an HTTP/1.1 request without Host is 400 (RFC 9112 §3.2). Node answers
 * that itself with a bare status line unless `requireHostHeader` is off; with it off, this answers it with
 * problem details, before the app would take the listening address for the missing Host.
 */
export function requireHost(listener: RequestListener): RequestListener {
  return (request, response) => {
    if (request.httpVersion !== '1.1' || request.headers.host !== undefined)
      return listener(request, response);
    const body = problemBody(malformed('An HTTP/1.1 request must have a Host header.'));
    response.writeHead(400, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  };
}
