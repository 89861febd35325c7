/** A scripted stand-in for `fetch`: answers from a queue and records every request it was given. */

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A response, an error to throw (a network failure), or 'hang': never answer until the signal aborts. */
export type Scripted = Response | Error | 'hang';

export function scriptedFetch(...script: Scripted[]) {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    requests.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const next = script.shift();
    if (next === undefined)
      throw new Error(`scriptedFetch: no answer scripted for request ${requests.length}`);
    if (next === 'hang') {
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function problemResponse(
  status: number,
  problem: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: 'Error', status, ...problem }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}

export function networkFailure(): TypeError {
  return new TypeError('fetch failed');
}
