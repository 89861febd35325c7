import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's range for port 0 and outgoing connections (Linux's default where it cannot be read). */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) || 32768;
  } catch {
    return 32768;
  }
}

const FIRST = 10_000;
const span = () => Math.max(1000, ephemeralLow() - FIRST);
// Each test process walks its own part of the range: processes differ in pid.
let next = (process.pid * 7919) % span();

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port free now, for a server that must be told its port (PostgreSQL, nginx, `npm start`). It is below the
 * kernel's ephemeral range, which a port-0 server or an outgoing connection of any other test could take meanwhile.
 */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < 1000; tried += 1) {
    const port = FIRST + (next % span());
    next += 1;
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free loopback port in ${FIRST}–${FIRST + span()}`);
}
