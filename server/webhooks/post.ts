import http from 'node:http';
import https from 'node:https';
import { boundedText } from '../core/bounded-text';
import { EgressRefused } from '../core/domain-errors';
import type { EgressPolicy } from '../core/egress-policy';
import { timeLimit } from '../core/time-limit';
import { pinnedLookup, resolveAllowed } from '../network/egress-lookup';

/** What a receiver said: its status and the start of its answer, or why there was no answer. */
export type PostOutcome =
  | { answered: true; status: number; body: string }
  | { answered: false; error: string };

const MAX_ANSWER_BYTES = 1024;

/**
 * POSTs a JSON body to a webhook URL: to the one address checked against the policy (the name is resolved
 * once, so DNS rebinding cannot lead elsewhere), following no redirect, within `timeoutMs`. Keeps at most the
 * first KiB of the answer, marked when cut, so a receiver can make the service hold nothing but one attempt's socket.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowed: EgressPolicy; timeoutMs: number; signal: AbortSignal },
): Promise<PostOutcome> {
  const target = new URL(url);
  let resolved: Awaited<ReturnType<typeof resolveAllowed>>;
  try {
    resolved = await resolveAllowed(options.allowed, target.hostname);
  } catch (error) {
    return { answered: false, error: refusal(target.hostname, error) };
  }
  const send = target.protocol === 'https:' ? https.request : http.request;
  const limit = timeLimit(options.timeoutMs, options.signal);
  return new Promise<PostOutcome>((resolve) => {
    const request = send(
      target,
      {
        method: 'POST',
        lookup: pinnedLookup(resolved),
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'ProfilePilot-Webhooks',
        },
        signal: limit.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () =>
          resolve({
            answered: true,
            status: response.statusCode ?? 0,
            body: boundedText(Buffer.concat(chunks).toString('utf8'), MAX_ANSWER_BYTES),
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve({
        answered: false,
        error:
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `The receiver did not answer within ${options.timeoutMs / 1000} s.`
            : `The receiver could not be reached (${error.code ?? error.message}).`,
      });
    });
    request.end(body);
  }).finally(limit.clear);
}

/** Why an address may not receive webhooks, as a sentence. */
export function refusal(host: string, error: unknown): string {
  if (error instanceof EgressRefused)
    return `${host} is a loopback, private, link-local or reserved address, which this service does not send webhooks to.`;
  return error instanceof Error ? error.message : `${host} could not be resolved.`;
}
