import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../core/domain-errors';
import type { AppEnv } from './env';

/** Requests an account may have served at once: alone on the service, and while other accounts are active. */
const ALONE = 6;
const SHARED = 2;
/** How far (ms of service) an account may run ahead of the least served active account before it waits. */
const LEAD_MS = 5;
/**
 * The most one request counts for: longer, it waits on a browser, a stream or a long poll, not on this process. A
 * refusal for sending too much (429) counts this much however quick it was, so that an account or address sending on
 * past its limits (wrong sign-in-link tokens by the thousand) gets its refusals only as the others are served.
 */
const COUNTED_MS = 50;
/** A request served this long stops holding its account's turn. */
const FRESH_MS = 250;
/**
 * A pause this short between an account's requests is its client turning round to ask the next (one request after
 * another), not time it leaves to the others.
 */
const TURN_ROUND_MS = 20;
/** How long after its last request an account still counts as active. */
const ACTIVE_MS = 1000;
/** Requests an account may have waiting for a turn; one more is answered 429. */
const LINE = 1000;

/** Gives a turn back; `refused` when the request was refused for sending too much. */
type GiveBack = (refused?: boolean) => void;

interface Turns {
  /** Time this account's requests were served (each counted up to COUNTED_MS), comparable between accounts. */
  servedMs: number;
  seenAtMs: number;
  serving: number;
  line: Array<() => void>;
  /** Since when it has had nothing served or waiting; null while it has. */
  idleSinceMs: number | null;
}

/**
 * Turns on this process for each account (issue 54), shared by the time each account's requests take: while other
 * accounts are active, an account that has been served LEAD_MS more than the least served of them waits until they
 * catch up, and has at most SHARED requests served at once. An active account's time with nothing asked, past
 * TURN_ROUND_MS, counts as served at its share (1 ÷ the active accounts): what it leaves unused goes to the others, so
 * an account asking one request after another beside one that polls every 250 ms is not held to the poller's pace
 * (issue 48), while one asking without pause keeps its turns beside a flood. So one account sending eight requests
 * at once, or requests that each take long (a large export), gets about half of the process beside another busy
 * account, and a quiet account is served at once. Alone, an account has ALONE at once. Heavy work inside one
 * request gives way of its own (Activity.inPieces, told by `othersActive`).
 */
export class RequestTurns {
  private readonly accounts = new Map<string, Turns>();
  private recheck: NodeJS.Timeout | null = null;

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /** Waits for a turn of `key`; resolves with what gives it back (once), or null when its line is full. */
  async take(key: string): Promise<GiveBack | null> {
    const turns = this.arrive(key);
    if (turns.line.length === 0 && this.mayServe(key, turns)) turns.serving++;
    else if (turns.line.length >= LINE) return null;
    // Woken with its turn already counted, so that two turns given back at once never wake past the limit.
    else await new Promise<void>((resolve) => this.wait(turns, resolve));
    return this.turnOf(turns);
  }

  /**
   * The account's turns, seen now: one that was not active starts level with the least served active account; one
   * that was idle has its idle time counted at its share, up to the least served active account.
   */
  private arrive(key: string): Turns {
    const now = this.nowMs();
    const least = this.leastServed(key, now);
    let turns = this.accounts.get(key);
    if (!turns) {
      turns = { servedMs: least ?? 0, seenAtMs: now, serving: 0, line: [], idleSinceMs: null };
      this.accounts.set(key, turns);
    } else if (!this.isActive(turns, now)) turns.servedMs = Math.max(turns.servedMs, least ?? 0);
    else if (least !== null)
      turns.servedMs = Math.max(
        turns.servedMs,
        Math.min(this.servedBy(turns, now, this.activeCount(now)), least),
      );
    turns.idleSinceMs = null;
    turns.seenAtMs = now;
    return turns;
  }

  /** Whether an account other than `key` is active now (served, waiting, or a request within ACTIVE_MS). */
  othersActive(key: string): boolean {
    return this.leastServed(key, this.nowMs()) !== null;
  }

  private mayServe(key: string, turns: Turns): boolean {
    const least = this.leastServed(key, this.nowMs());
    if (least === null) return turns.serving < ALONE;
    return turns.serving < SHARED && turns.servedMs <= least + LEAD_MS;
  }

  /** The least time served among the active accounts other than `key`; null when none is active. */
  private leastServed(key: string, now: number): number | null {
    const active = this.activeCount(now);
    let least: number | null = null;
    for (const [other, turns] of this.accounts)
      if (other !== key && this.isActive(turns, now)) {
        const served = this.servedBy(turns, now, active);
        if (least === null || served < least) least = served;
      }
    return least;
  }

  /** Its time served, with its time idle since its last request, past TURN_ROUND_MS, counted at its share. */
  private servedBy(turns: Turns, now: number, active: number): number {
    const idleMs = turns.idleSinceMs === null ? 0 : now - turns.idleSinceMs - TURN_ROUND_MS;
    return idleMs <= 0 ? turns.servedMs : turns.servedMs + idleMs / Math.max(active, 1);
  }

  /** Counted once per look at the accounts: per account it made each request's look quadratic in them. */
  private activeCount(now: number): number {
    let active = 0;
    for (const each of this.accounts.values()) if (this.isActive(each, now)) active++;
    return active;
  }

  private isActive(turns: Turns, now: number): boolean {
    return turns.serving > 0 || turns.line.length > 0 || turns.seenAtMs >= now - ACTIVE_MS;
  }

  private wait(turns: Turns, wake: () => void): void {
    turns.line.push(wake);
    this.recheckSoon();
  }

  /** Another account that stops sending stops counting after ACTIVE_MS, with no turn given back to say so. */
  private recheckSoon(): void {
    if (this.recheck) return;
    this.recheck = setTimeout(() => {
      this.recheck = null;
      this.wakeWaiting();
    }, 50);
    this.recheck.unref();
  }

  private turnOf(turns: Turns): GiveBack {
    const started = this.nowMs();
    let given = false;
    const giveBack = (refused = false) => {
      if (given) return;
      given = true;
      clearTimeout(stale);
      turns.servedMs += refused ? COUNTED_MS : Math.min(this.nowMs() - started, COUNTED_MS);
      turns.serving--;
      if (turns.serving === 0 && turns.line.length === 0) turns.idleSinceMs = this.nowMs();
      this.wakeWaiting();
    };
    const stale = setTimeout(() => giveBack(), FRESH_MS);
    stale.unref();
    return giveBack;
  }

  /** Serves waiting requests, the least served account first, as far as the rules allow; forgets idle accounts. */
  private wakeWaiting(): void {
    const now = this.nowMs();
    const waiting = [...this.accounts].filter(([, turns]) => turns.line.length > 0);
    waiting.sort(([, a], [, b]) => a.servedMs - b.servedMs);
    for (const [key, turns] of waiting)
      while (turns.line.length > 0 && this.mayServe(key, turns)) {
        turns.serving++;
        (turns.line.shift() as () => void)();
      }
    for (const [key, turns] of this.accounts) if (!this.isActive(turns, now)) this.accounts.delete(key);
    if (waiting.some(([, turns]) => turns.line.length > 0)) this.recheckSoon();
  }
}

/** Each request takes a turn of its account (or, before sign-in, of its address) and gives it back when answered. */
export function takeTurns(
  turns: RequestTurns,
  keyOf: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const giveBack = await turns.take(keyOf(c));
    if (!giveBack)
      throw new DomainError({
        status: 429,
        code: 'rate_limited',
        detail:
          'This account has too many requests waiting for an answer; wait for some to answer before sending more.',
        retryAfterSeconds: 1,
      });
    let refused = false;
    try {
      await next();
      refused = c.res.status === 429;
    } finally {
      giveBack(refused);
    }
  };
}
