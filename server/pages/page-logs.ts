import type { Page, Request } from 'playwright-core';
import { cutUrl } from './page-text';

/*
 * What the agent reads of a tab's console and network, bounded: the newest messages and requests only, each cut,
 * and no secret of a header or an address (a session's cookies and tokens are the account's, not the model's).
 */

/** The requests of a tab kept for browser_network_requests. */
const KEPT_REQUESTS = 100;
const MAX_TEXT_CHARS = 500;
/** A header or query parameter whose name says it carries a secret. */
const SECRET_NAME =
  /authorization|cookie|token|secret|passw|session|csrf|xsrf|api[-_]?key|signature|^key$|^sig$|^auth/i;
const REDACTED = '[redacted]';

interface RequestEntry {
  request: Request;
  status: number | null;
  failure: string | null;
}

const requestsOf = new WeakMap<Page, RequestEntry[]>();

export function watchNetwork(page: Page): void {
  const kept: RequestEntry[] = [];
  requestsOf.set(page, kept);
  const entryOf = (request: Request) => kept.find((entry) => entry.request === request);
  page.on('request', (request) => {
    kept.push({ request, status: null, failure: null });
    if (kept.length > KEPT_REQUESTS) kept.shift();
  });
  page.on('response', (response) => {
    const entry = entryOf(response.request());
    if (entry) entry.status = response.status();
  });
  page.on('requestfailed', (request) => {
    const entry = entryOf(request);
    if (entry) entry.failure = request.failure()?.errorText ?? 'failed';
  });
}

const cut = (text: string) => (text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text);

/** A header set with every secret's value replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_NAME.test(name) ? REDACTED : cut(value)]),
  );
}

/** An address with the values of secret-named query parameters (and any password) replaced. */
export function redactUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return cutUrl(address);
  }
  if (url.password) url.password = REDACTED;
  for (const name of [...url.searchParams.keys()])
    if (SECRET_NAME.test(name)) url.searchParams.set(name, REDACTED);
  return cutUrl(url.href);
}

export async function networkRequests(
  page: Page,
  { limit = 50, headers = false }: { limit?: number; headers?: boolean },
): Promise<{ text: string; structured: Record<string, unknown> }> {
  const newest = (requestsOf.get(page) ?? []).slice(-limit);
  const requests = await Promise.all(
    newest.map(async ({ request, status, failure }) => ({
      method: request.method(),
      url: redactUrl(request.url()),
      type: request.resourceType(),
      status,
      failure,
      ...(headers
        ? {
            // A request still waiting for its response would keep these waiting too.
            request_headers: redactHeaders(
              status === null ? request.headers() : await request.allHeaders().catch(() => request.headers()),
            ),
            response_headers: redactHeaders(
              status === null ? {} : ((await request.response().catch(() => null))?.headers() ?? {}),
            ),
          }
        : {}),
    })),
  );
  const lines = requests.map(
    (r) => `${r.method} ${r.url} → ${r.status ?? r.failure ?? 'pending'} (${r.type})`,
  );
  const heading = `${requests.length} newest request${requests.length === 1 ? '' : 's'} of the tab (secrets redacted).`;
  return { text: [heading, ...lines].join('\n'), structured: { requests } };
}

export async function consoleMessages(
  page: Page,
  limit = 50,
): Promise<{ text: string; structured: Record<string, unknown> }> {
  const all = { filter: 'all' } as const;
  const [messages, errors] = await Promise.all([page.consoleMessages(all), page.pageErrors(all)]);
  const entries = [
    ...messages.map((message) => ({ type: message.type(), text: cut(message.text()) })),
    ...errors.map((error) => ({ type: 'pageerror', text: cut(String(error.message)) })),
  ].slice(-limit);
  const lines = entries.map((entry) => `[${entry.type}] ${entry.text}`);
  const heading = `${entries.length} newest console message${entries.length === 1 ? '' : 's'} (page errors last).`;
  return { text: [heading, ...lines].join('\n'), structured: { messages: entries } };
}
