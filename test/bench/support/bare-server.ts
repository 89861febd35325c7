/**
 * The baseline: bare `node:http` answering each recorded request with the very bytes and headers the service
 * answered. Run as its own process so that its CPU is measured alone. Reads the answers as JSON on stdin and
 * prints its port once it listens.
 */
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';

export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const answers: RecordedAnswer[] = JSON.parse(await text(process.stdin));
const byRoute = new Map(answers.map((answer) => [`${answer.method} ${answer.path}`, answer]));

const server = createServer((request, response) => {
  request.resume();
  request.once('end', () => {
    const answer = byRoute.get(`${request.method} ${request.url}`);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
