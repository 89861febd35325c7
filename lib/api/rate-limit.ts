/** What the service last said about the hourly quota. All null when it sent no headers (an unlimited plan). */
export interface QuotaSnapshot {
  limit: number | null;
  remaining: number | null;
  /** Seconds until a request is freed (IETF `t`) or the window resets. */
  resetSeconds: number | null;
  /** When the answer carrying these headers arrived, ms since the epoch. */
  observedAt: number;
}

interface HeaderSource {
  get(name: string): string | null;
}

// Reset values this large are epoch seconds (GitHub's X-RateLimit-Reset), not a number of seconds to wait.
const EPOCH_SECONDS = 1e9;

/**
 * Reads the quota from the IETF `RateLimit` + `RateLimit-Policy` pair, the older draft's
 * `RateLimit-Limit/-Remaining/-Reset` triple, or the common `X-RateLimit-*` triple, in that order of trust.
 */
export function readQuota(headers: HeaderSource, observedAt: number): QuotaSnapshot {
  const [current, policy] = ietfItems(headers.get('RateLimit'), headers.get('RateLimit-Policy'));
  const legacyReset = leadingInt(headers.get('X-RateLimit-Reset'));
  return {
    limit:
      param(policy, 'q') ??
      leadingInt(headers.get('RateLimit-Limit')) ??
      leadingInt(headers.get('X-RateLimit-Limit')),
    remaining:
      param(current, 'r') ??
      leadingInt(headers.get('RateLimit-Remaining')) ??
      leadingInt(headers.get('X-RateLimit-Remaining')),
    resetSeconds:
      param(current, 't') ??
      leadingInt(headers.get('RateLimit-Reset')) ??
      (legacyReset !== null && legacyReset > EPOCH_SECONDS
        ? Math.max(0, Math.ceil(legacyReset - observedAt / 1000))
        : legacyReset),
    observedAt,
  };
}

/** `Retry-After` as seconds to wait: a number of seconds or an HTTP date. Null when absent or unreadable. */
export function readRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const seconds = leadingInt(value);
  if (seconds !== null) return seconds;
  // HTTP dates end in GMT; Date.parse alone would read "-5" as a year.
  const date = /GMT\s*$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The first `RateLimit` item and the `RateLimit-Policy` item of the same name (or the first policy). */
function ietfItems(rateLimit: string | null, policies: string | null): [string?, string?] {
  const current = rateLimit?.split(',')[0];
  const items = policies?.split(',') ?? [];
  const name = current && itemName(current);
  return [current, items.find((item) => itemName(item) === name) ?? items[0]];
}

function itemName(item: string): string {
  return item.split(';')[0]?.trim() ?? '';
}

function param(item: string | undefined, key: string): number | null {
  const match = item && new RegExp(`;\\s*${key}=(\\d+)\\s*(?:;|$)`).exec(item);
  return match ? Number(match[1]) : null;
}

/** `72`, or the leading number of a list such as `100, 100;w=3600`; null for anything else. */
function leadingInt(value: string | null): number | null {
  const match = value && /^\s*(\d+)\s*(?:[,;]|$)/.exec(value);
  return match ? Number(match[1]) : null;
}
