import type { RelayCredentials } from './relay-credentials';

/** A DevTools message on its way to a client, as text or as the bytes it came in. */
export type OutgoingMessage = string | Buffer;

const HEADER = 'proxy-authorization';
/** A JSON string's text, its escapes included; linear, as no character can start two alternatives. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** The header as a line of a `headersText`, up to the escaped line end that follows it. */
const HEADER_LINE = new RegExp(String.raw`\\r\\n${HEADER}:(?:[^"\\]|\\[^r])*`, 'gi');

/**
 * Takes what names the session's relay out of the messages its DevTools clients are sent: Chromium reports the
 * `Proxy-Authorization` it sends the relay (`Network.requestWillBeSentExtraInfo`, `headersText`), and the relay's
 * address as every answer's remote address, so a client would read the relay's secret and where to use it
 * (docs/security.md: the secret never reaches a tab). The header goes wherever it is, the remote address of an
 * answer too, and the secret and the address are replaced anywhere else. A message that names none of them (the
 * rest) passes as it is. A large one, still bytes (cdp-pipe.ts), is searched for the header's value only: Chromium
 * never sends the header without it, and each search of 40 MB holds the event loop for tens of ms.
 */
export function withoutRelayTraces(relay: RelayCredentials): (message: OutgoingMessage) => OutgoingMessage {
  const address = relay.proxyServer.replace(/^http:\/\//, '');
  const port = address.slice(address.lastIndexOf(':') + 1);
  const basic = Buffer.from(`${relay.username}:${relay.password}`).toString('base64');
  const remotePort = `"remotePort":${port}`;
  const markers = ['Proxy-Authorization', HEADER, basic, relay.password, address, remotePort];
  const named = (message: OutgoingMessage) => markers.some((marker) => message.includes(marker));
  const header = member(`"${HEADER}"`, JSON_STRING);
  const remoteIp = member('"remoteIPAddress"', '"127\\.0\\.0\\.1"');
  const remotePortMember = member('"remotePort"', `${port}(?![0-9])`);
  const scrub = (text: string) => {
    let clean = text.replace(header, withoutMember).replace(HEADER_LINE, '');
    if (clean.includes(remotePort))
      clean = clean.replace(remoteIp, withoutMember).replace(remotePortMember, withoutMember);
    return clean
      .replaceAll(basic, '[redacted]')
      .replaceAll(relay.password, '[redacted]')
      .replaceAll(address, '[relay]');
  };
  return (message) => {
    if (typeof message === 'string' ? !named(message) : !message.includes(basic)) return message;
    return typeof message === 'string' ? scrub(message) : Buffer.from(scrub(message.toString()));
  };
}

/** A member of a JSON object by its key and value patterns, with the commas around it. */
function member(key: string, value: string): RegExp {
  return new RegExp(String.raw`(,\s*)?${key}\s*:\s*${value}(\s*,)?`, 'gi');
}

/** Between two members, one comma stays; first or last, none. */
function withoutMember(_match: string, before: string | undefined, after: string | undefined): string {
  return before !== undefined && after !== undefined ? ',' : '';
}
