import WebSocket from 'ws';

/** Closes a WebSocket with a code it may send (1005 and 1006 are only ever received). */
function closeWith(socket: WebSocket, code: number, reason: string): void {
  const sendable = code >= 1000 && code < 5000 && code !== 1005 && code !== 1006;
  socket.close(sendable ? code : 1001, reason.slice(0, 120));
}

/**
 * Relays a DevTools client's WebSocket to the node that runs the session, at the same path: the token in it is
 * signed with the cluster's shared key, so that node checks it again. Messages pass as they are, both ways, those
 * from the client at the rate it `admits`; a client that stops reading is dropped before it costs memory, as on
 * the node itself.
 */
export function relayDevtools(
  client: WebSocket,
  target: string,
  maxBufferedBytes: number,
  admits: () => boolean,
): void {
  const upstream = new WebSocket(target, { perMessageDeflate: false, maxPayload: 64 * 2 ** 20 });
  const queued: Buffer[] = [];
  client.on('message', (data, isBinary) => {
    if (!admits() || isBinary) return;
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data as Buffer, { binary: false });
    else queued.push(data as Buffer);
  });
  upstream.on('open', () => {
    for (const text of queued.splice(0)) upstream.send(text, { binary: false });
  });
  upstream.on('message', (data, isBinary) => {
    if (isBinary) return;
    // As the bytes came: a large reply is not decoded and encoded again on its way.
    if (client.bufferedAmount > maxBufferedBytes) client.terminate();
    else client.send(data as Buffer, { binary: false });
  });
  upstream.on('close', (code, reason) => {
    if (client.readyState === WebSocket.OPEN) closeWith(client, code, reason.toString());
  });
  upstream.on('error', () => {
    if (client.readyState === WebSocket.OPEN)
      client.close(1011, 'the machine running this session does not answer');
  });
  client.on('close', () => upstream.terminate());
  client.on('error', () => upstream.terminate());
}
