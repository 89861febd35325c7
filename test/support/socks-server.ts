import { connect, createServer, type Socket } from 'node:net';

/** What a client asked of the SOCKS server: its credentials and where it wanted to go. */
export interface SocksRequest {
  version: 4 | 5;
  username: string;
  password: string | null;
  target: string;
  accepted: boolean;
}

/**
 * A minimal SOCKS4(a)/SOCKS5 server on 127.0.0.1 for the proxy relay's tests: CONNECT only, and a user name
 * (SOCKS4) or a user name and password (SOCKS5, RFC 1929) that must match. Records every request.
 */
export async function startSocksServer(credentials: { username: string; password: string }) {
  const requests: SocksRequest[] = [];
  const server = createServer((socket) => {
    serve(socket, credentials, requests).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function serve(
  socket: Socket,
  credentials: { username: string; password: string },
  requests: SocksRequest[],
): Promise<void> {
  const read = reader(socket);
  const [version] = await read(1);
  if (version === 5) {
    const [methods = 0] = await read(1);
    await read(methods);
    socket.write(Buffer.from([5, 2])); // user name and password
    const [, userLength = 0] = await read(2);
    const username = (await read(userLength)).toString();
    const [passwordLength = 0] = await read(1);
    const password = (await read(passwordLength)).toString();
    const accepted = username === credentials.username && password === credentials.password;
    socket.write(Buffer.from([1, accepted ? 0 : 1]));
    const [, , , addressType] = await read(4);
    const host =
      addressType === 3
        ? (await read((await read(1))[0] ?? 0)).toString()
        : [...(await read(addressType === 1 ? 4 : 16))].join('.');
    const port = (await read(2)).readUInt16BE(0);
    requests.push({ version: 5, username, password, target: `${host}:${port}`, accepted });
    if (!accepted) return void socket.end();
    relay(socket, read, host, port, Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
  } else if (version === 4) {
    const header = await read(7);
    const port = header.readUInt16BE(1);
    const ip = [...header.subarray(3, 7)];
    const username = (await readUntilZero(read)).toString();
    // SOCKS4a: 0.0.0.x means the host name follows.
    const host =
      ip[0] === 0 && ip[1] === 0 && ip[2] === 0 ? (await readUntilZero(read)).toString() : ip.join('.');
    const accepted = username === credentials.username;
    requests.push({ version: 4, username, password: null, target: `${host}:${port}`, accepted });
    if (!accepted) return void socket.end(Buffer.from([0, 0x5b, 0, 0, 0, 0, 0, 0]));
    relay(socket, read, host, port, Buffer.from([0, 0x5a, 0, 0, 0, 0, 0, 0]));
  } else {
    socket.destroy();
  }
}

function relay(socket: Socket, read: Read, host: string, port: number, granted: Buffer): void {
  read.release();
  const upstream = connect(port, host, () => {
    socket.write(granted);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
}

type Read = ((count: number) => Promise<Buffer>) & {
  /** Ends the handshake: what arrived beyond it waits in the paused socket for the relay. */
  release(): void;
};

/** Reads exactly `count` bytes at a time from a socket, keeping what arrived beyond them. */
function reader(socket: Socket): Read {
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  };
  socket.on('data', onData);
  const read = async (count: number) => {
    while (buffered.length < count) {
      if (socket.destroyed || socket.readableEnded) throw new Error('the client went away');
      await new Promise<void>((resolve) => {
        waiting = resolve;
        socket.once('close', resolve);
      });
    }
    const taken = buffered.subarray(0, count);
    buffered = buffered.subarray(count);
    return taken;
  };
  return Object.assign(read, {
    release() {
      socket.off('data', onData);
      socket.pause();
      if (buffered.length > 0) socket.unshift(buffered);
    },
  });
}

async function readUntilZero(read: Read): Promise<Buffer> {
  const bytes: number[] = [];
  for (let [byte] = await read(1); byte !== 0; [byte] = await read(1)) bytes.push(byte as number);
  return Buffer.from(bytes);
}
