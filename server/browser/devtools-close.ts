import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Sends DevTools `Browser.close` to a browser's WebSocket endpoint: the one way that makes Chromium flush
 * its profile (cookies) before exiting. Resolves true once Chromium acknowledged the command or dropped
 * the connection after receiving it, false when the endpoint could not be reached in time.
 * Node 20 has no WebSocket client, and one short command needs only the handshake and a frame each way.
 */
export function sendBrowserClose(webSocketUrl: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const url = new URL(webSocketUrl);
    let settled = false;
    let socket: Socket | null = null;
    const finish = (delivered: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      req.destroy();
      resolve(delivered);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        'Sec-WebSocket-Version': '13',
      },
    });
    req.on('error', () => finish(false));
    req.on('response', () => finish(false));
    req.on('upgrade', (_response, upgraded, head) => {
      socket = upgraded;
      let received = head;
      upgraded.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        for (let frame = readFrame(received); frame; frame = readFrame(received)) {
          received = received.subarray(frame.size);
          if (frame.text !== null && isReplyToClose(frame.text)) finish(true);
        }
      });
      upgraded.on('close', () => finish(true));
      upgraded.on('error', () => finish(true));
      upgraded.write(maskedTextFrame(JSON.stringify({ id: 1, method: 'Browser.close' })));
    });
    req.end();
  });
}

function isReplyToClose(text: string): boolean {
  try {
    return (JSON.parse(text) as { id?: unknown }).id === 1;
  } catch {
    return false;
  }
}

/** A client frame must be masked (RFC 6455 §5.3); FIN + text opcode. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const lengthBytes =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0));
  return Buffer.concat([Buffer.from([0x81]), lengthBytes, mask, masked]);
}

/** One complete unmasked server frame at the start of the buffer, or null until it has fully arrived. */
function readFrame(buffer: Buffer): { size: number; text: string | null } | null {
  if (buffer.length < 2) return null;
  const opcode = (buffer[0] ?? 0) & 0x0f;
  const shortLength = (buffer[1] ?? 0) & 0x7f;
  let headerSize = 2;
  let length = shortLength;
  if (shortLength === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    headerSize = 4;
  } else if (shortLength === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    headerSize = 10;
  }
  const size = headerSize + length;
  if (buffer.length < size) return null;
  const text = opcode === 1 ? buffer.subarray(headerSize, size).toString('utf8') : null;
  return { size, text };
}
