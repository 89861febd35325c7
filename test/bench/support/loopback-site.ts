/**
 * The pages and files the traffic bench loads, served on loopback from a process of its own (so that serving
 * them weighs on neither the service nor the bench's clock): /blank, /page?n=N (a page of N scripts),
 * /s/I.js, and /bytes?mb=M (M MiB of zeros, streamed), over HTTP and over HTTPS with a certificate made for the
 * run (by `openssl`; browsers are told to accept it). Prints the two ports on stdout once listening.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MIB = 1024 * 1024;
const chunk = Buffer.alloc(MIB);
const noStore = { 'Cache-Control': 'no-store' };

const serve: RequestListener = (request, response) => {
  const url = new URL(request.url ?? '/', 'http://site');
  if (url.pathname === '/page') {
    const count = Number(url.searchParams.get('n') ?? 300);
    const scripts = Array.from(
      { length: count },
      (_, i) => `<script src="/s/${i}.js?${url.search}"></script>`,
    );
    response.writeHead(200, { 'Content-Type': 'text/html', ...noStore });
    response.end(`<title>Page</title>${scripts.join('')}`);
  } else if (url.pathname.startsWith('/s/')) {
    response.writeHead(200, { 'Content-Type': 'text/javascript', ...noStore });
    response.end(`window.loaded = (window.loaded || 0) + 1;`);
  } else if (url.pathname === '/bytes') {
    const mib = Number(url.searchParams.get('mb') ?? 64);
    response.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(mib * MIB),
      'Access-Control-Allow-Origin': '*',
      ...noStore,
    });
    let sent = 0;
    const pump = () => {
      while (sent < mib) {
        sent += 1;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  } else {
    response.writeHead(200, { 'Content-Type': 'text/html', ...noStore }).end('<title>Blank</title>');
  }
};

/** A key and a self-signed certificate for 127.0.0.1, valid for a day. */
function certificateForLoopback(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-bench-tls-'));
  try {
    const request =
      'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1';
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [...request.split(' '), '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const plain = createServer(serve);
const secure = createSecureServer(certificateForLoopback(), serve);
const listening = [plain, secure].map(
  (server) =>
    new Promise<number>((resolve) => {
      server.keepAliveTimeout = 30_000;
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    }),
);
void Promise.all(listening).then((ports) => process.stdout.write(`${ports.join(' ')}\n`));
process.on('disconnect', () => process.exit(0));
