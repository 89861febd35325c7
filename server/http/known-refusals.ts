/**
 * Accounts this process saw refused by their hourly limit, and until when. A refusal holds until the oldest
 * counted minute leaves the hour: until then the database's count can only grow (refused requests are not
 * counted, any process may add some), so repeating it from memory is exact and costs the database nothing,
 * however hard a client keeps knocking.
 */
export class KnownRefusals {
  private readonly until = new Map<string, number>();

  /** Above this many entries, refusals that ended are dropped, so many accounts cannot grow memory. */
  constructor(private readonly sweepAbove = 10_000) {}

  /** When the refusal of the account under this limit ends, or null when none is known at `nowMs`. */
  refusedUntil(accountId: string, limit: number, nowMs: number): number | null {
    const until = this.until.get(keyOf(accountId, limit));
    return until !== undefined && until > nowMs ? until : null;
  }

  remember(accountId: string, limit: number, untilMs: number, nowMs: number): void {
    this.until.set(keyOf(accountId, limit), untilMs);
    if (this.until.size <= this.sweepAbove) return;
    for (const [key, until] of this.until) if (until <= nowMs) this.until.delete(key);
  }
}

// With the limit in the key, an account moved to another plan is counted afresh.
const keyOf = (accountId: string, limit: number) => `${accountId} ${limit}`;
