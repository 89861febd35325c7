import type { Page, Request } from 'playwright-core';
import { redactHeaders, redactUrl } from './redact';

/*
 * What the agent reads of a tab's console and network, bounded: the newest messages and requests only, each cut,
 * and no secret of a header or an address (a session's cookies and tokens are the account's, not the model's).
 */

/** The requests of a tab kept for browser_network_requests. */
const KEPT_REQUESTS = 100;
const MAX_TEXT_CHARS = 500;
interface RequestEntry {
  request: Request;
  status: number | null;
  failure: string | null;
}

const requestsOf = new WeakMap<Page, RequestEntry[]>();

/** The console lines of a tab kept for browser_console_messages. */
const KEPT_MESSAGES = 500;

interface ConsoleEntry {
  type: string;
  text: string;
  /** How many navigations the tab's main frame had started when it came. */
  page: number;
}

const consoleOf = new WeakMap<Page, { entries: ConsoleEntry[]; page: number }>();

/** Keeps the tab's console lines and page errors, each marked with the page it came from. */
export function watchConsole(page: Page): void {
  const kept = { entries: [] as ConsoleEntry[], page: 0 };
  consoleOf.set(page, kept);
  const add = (type: string, text: string) => {
    kept.entries.push({ type, text: cut(text), page: kept.page });
    if (kept.entries.length > KEPT_MESSAGES) kept.entries.shift();
  };
  // A new page starts with its navigation's request, before any of its scripts can write to the console.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) kept.page += 1;
  });
  page.on('console', (message) => add(message.type(), message.text()));
  page.on('pageerror', (error) => add('pageerror', String(error.message)));
}

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

/** What browser_network_requests may narrow the list to. */
export interface NetworkFilter {
  limit?: number;
  headers?: boolean;
  failed_only?: boolean;
  url_includes?: string;
}

const failed = ({ status, failure }: RequestEntry) => failure !== null || (status !== null && status >= 400);

export async function networkRequests(
  page: Page,
  { limit = 50, headers = false, failed_only = false, url_includes }: NetworkFilter,
): Promise<{ text: string }> {
  const matching = (requestsOf.get(page) ?? []).filter(
    (entry) =>
      (!failed_only || failed(entry)) && (!url_includes || entry.request.url().includes(url_includes)),
  );
  const newest = matching.slice(-limit);
  const lines = await Promise.all(
    newest.map(async ({ request, status, failure }) => {
      const line = `${request.method()} ${redactUrl(request.url())} → ${status ?? failure ?? 'pending'} (${request.resourceType()})`;
      if (!headers) return line;
      // A request still waiting for its response would keep these waiting too.
      const sent =
        status === null ? request.headers() : await request.allHeaders().catch(() => request.headers());
      const received = status === null ? {} : ((await request.response().catch(() => null))?.headers() ?? {});
      const headerLines = (mark: string, set: Record<string, string>) =>
        Object.entries(redactHeaders(set)).map(([name, value]) => `  ${mark} ${name}: ${value}`);
      return [line, ...headerLines('>', sent), ...headerLines('<', received)].join('\n');
    }),
  );
  const left = matching.length - newest.length;
  const which = [
    failed_only ? 'failed' : '',
    url_includes ? `to addresses with ${JSON.stringify(url_includes)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const heading =
    `${newest.length} newest request${newest.length === 1 ? '' : 's'}${which ? ` (${which})` : ''} of the tab, secrets redacted.` +
    (left > 0 ? ` ${left} older left out: raise limit or narrow with url_includes.` : '');
  return { text: [heading, ...lines].join('\n') };
}

/** The console's levels, most severe first: a level lists its own messages and the more severe ones'. */
export const CONSOLE_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

const LEVEL_OF: Record<string, ConsoleLevel> = {
  error: 'error',
  assert: 'error',
  pageerror: 'error',
  warning: 'warning',
  debug: 'debug',
  trace: 'debug',
  verbose: 'debug',
};

export function consoleMessages(
  page: Page,
  { limit = 50, level = 'info', all = false }: { limit?: number; level?: ConsoleLevel; all?: boolean },
): { text: string } {
  const kept = consoleOf.get(page) ?? { entries: [], page: 0 };
  const most = CONSOLE_LEVELS.indexOf(level);
  const matching = kept.entries.filter(
    (entry) =>
      (all || entry.page === kept.page) && CONSOLE_LEVELS.indexOf(LEVEL_OF[entry.type] ?? 'info') <= most,
  );
  const entries = matching.slice(-limit);
  const left = matching.length - entries.length;
  const since = all ? 'of the tab' : 'since the last navigation';
  const heading =
    `${entries.length} newest console message${entries.length === 1 ? '' : 's'} ${since}, ${level} and more severe.` +
    (left > 0 ? ` ${left} older left out: raise limit.` : '') +
    (all ? '' : ' Earlier pages: all: true.');
  return { text: [heading, ...entries.map((entry) => `[${entry.type}] ${entry.text}`)].join('\n') };
}
