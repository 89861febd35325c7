import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import type { EgressPolicy } from '../core/egress-policy';
import { openSessionRelay, refuseForbiddenProxy, type SessionRelay } from './proxy-relay';
import type { ProxySettings } from './settings';

export type ProxyCheck =
  | { ok: true; ip: string; timezone: string | null; took_ms: number }
  | { ok: false; reason: string; took_ms: number };

export interface ProxyCheckOptions {
  proxy: ProxySettings;
  /** An address that answers the caller's IP as text, or as JSON with `ip` (and maybe `timezone`). */
  checkUrl: string;
  policy: EgressPolicy;
  timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/** What the relay answers when the proxy itself failed (relay-upstream.ts), as a sentence. */
const RELAY_REASONS: Record<number, string> = {
  502: 'The proxy’s address could not be resolved.',
  504: 'The proxy did not answer in time.',
  590: 'The proxy refused to connect to the check address.',
  594: 'The proxy refused the connection: check its host and port.',
  595: 'The proxy closed the connection.',
  596: 'The proxy closed the connection.',
  597: 'The proxy refused its user name or password (407).',
  599: 'The proxy could not be used.',
};

/**
 * Asks the check address for the caller's IP through the proxy, by way of a relay of its own whose secret only
 * this process knows (as a session's browser would: the egress policy and the proxy's credentials applied the
 * same way).
 */
export async function checkProxy({
  proxy,
  checkUrl,
  policy,
  timeoutMs,
}: ProxyCheckOptions): Promise<ProxyCheck> {
  const started = performance.now();
  const took_ms = () => Math.round(performance.now() - started);
  let relay: SessionRelay;
  // The policy's refusal, as the relay records it: an answer a check address gives cannot pass for it.
  let refusal: string | null = null;
  try {
    await refuseForbiddenProxy(policy, proxy);
    relay = await openSessionRelay({
      upstream: proxy,
      policy,
      onRefused: (detail) => {
        refusal = detail;
      },
    });
  } catch (error) {
    return { ok: false, reason: (error as Error).message, took_ms: took_ms() };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const answer = await getThrough(relay, new URL(checkUrl), signal);
    if (answer.status !== 200)
      return {
        ok: false,
        reason: (answer.status === 403 && refusal) || failureOf(answer),
        took_ms: took_ms(),
      };
    const found = readIp(answer.body);
    if (!found)
      return {
        ok: false,
        reason: 'The check address answered, but not with an IP address.',
        took_ms: took_ms(),
      };
    return { ok: true, ...found, took_ms: took_ms() };
  } catch (error) {
    const reason = signal.aborted
      ? `The proxy did not answer within ${Math.round(timeoutMs / 1000)} s.`
      : `The check could not go through the proxy: ${(error as Error).message}.`;
    return { ok: false, reason, took_ms: took_ms() };
  } finally {
    await relay.close();
  }
}

interface Answer {
  status: number;
  body: string;
}

/** The relay's own answers say what failed; anything else is the check address's answer. */
function failureOf({ status }: Answer): string {
  const relayed = RELAY_REASONS[status];
  if (relayed) return relayed;
  return `The check address answered ${status} through the proxy.`;
}

/** GET `target` through the relay, its secret presented: in absolute form for http, through a CONNECT tunnel for https. */
function getThrough(relay: SessionRelay, target: URL, signal: AbortSignal): Promise<Answer> {
  const proxy = new URL(relay.proxyServer);
  const via = { host: proxy.hostname, port: Number(proxy.port), signal };
  const authorization = { 'Proxy-Authorization': relay.authorization };
  if (target.protocol === 'http:')
    return answerOf(
      httpRequest({ ...via, path: target.href, headers: { Host: target.host, ...authorization } }),
    );
  return new Promise((resolve, reject) => {
    const tunnel = httpRequest({
      ...via,
      method: 'CONNECT',
      path: `${target.hostname}:${target.port || 443}`,
      headers: authorization,
    });
    tunnel.on('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, body: response.statusMessage ?? '' });
        return;
      }
      const secure = tlsConnect({ socket, servername: target.hostname });
      const get = httpsRequest(target, { createConnection: () => secure, signal });
      answerOf(get).then(resolve, reject);
    });
    tunnel.on('error', reject);
    tunnel.end();
  });
}

function answerOf(request: ReturnType<typeof httpRequest>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const IP = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]+)$/i;

/** The IP (and time zone, when given) of a plain-text or JSON answer. */
function readIp(body: string): { ip: string; timezone: string | null } | null {
  const text = body.trim();
  if (IP.test(text)) return { ip: text, timezone: null };
  try {
    const json = JSON.parse(text) as { ip?: unknown; timezone?: unknown };
    if (typeof json.ip === 'string' && IP.test(json.ip))
      return { ip: json.ip, timezone: typeof json.timezone === 'string' ? json.timezone : null };
  } catch {
    // Neither an address nor JSON.
  }
  return null;
}
