/**
 * The pages and files the traffic bench loads, served on loopback from a process of its own (so that serving
 * them weighs on neither the service nor the bench's clock): /blank, /page?n=N (a page of N scripts),
 * /s/I.js, and /bytes?mb=M (M MiB of zeros, streamed). Prints the port on stdout once listening.
 */
import { createServer } from 'node:http';

const MIB = 1024 * 1024;
const chunk = Buffer.alloc(MIB);
const noStore = { 'Cache-Control': 'no-store' };

const site = createServer((request, response) => {
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
});
site.keepAliveTimeout = 30_000;
site.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(site.address() as { port: number }).port}\n`);
});
process.on('disconnect', () => process.exit(0));
