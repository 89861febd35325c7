export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until the oldest counted request leaves the window and frees a slot (at least 1). */
  resetSeconds: number;
}

/**
 * Counts requests per key in a sliding window: a request is allowed while fewer than `limit` requests were
 * counted in the last `windowMs`. Refused requests are not counted. Synchronous, so on one event loop the
 * count is exact however many requests arrive at once.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    /** Above this many keys, windows that emptied are dropped, so a flood of addresses cannot grow memory. */
    private readonly sweepAbove = 10_000,
  ) {}

  hit(key: string, limit: number, nowMs: number): WindowVerdict {
    const hits = this.current(key, nowMs);
    const allowed = hits.length < limit;
    if (allowed) hits.push(nowMs);
    if (hits.length > 0) this.hits.set(key, hits);
    if (this.hits.size > this.sweepAbove) this.sweep(nowMs);
    const oldest = hits[0] ?? nowMs;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - hits.length),
      resetSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000)),
    };
  }

  private current(key: string, nowMs: number): number[] {
    const hits = this.hits.get(key) ?? [];
    const cutoff = nowMs - this.windowMs;
    let expired = 0;
    while (expired < hits.length && (hits[expired] ?? 0) <= cutoff) expired++;
    return expired > 0 ? hits.slice(expired) : hits;
  }

  private sweep(nowMs: number): void {
    for (const key of this.hits.keys()) {
      if (this.current(key, nowMs).length === 0) this.hits.delete(key);
    }
  }
}
