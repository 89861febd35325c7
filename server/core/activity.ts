import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** How long after its last request an account still counts as using the service. */
const ACTIVE_MS = 1000;

/** Time heavy work rests for each unit of its own work while others are active: it takes at most a third. */
const REST_PER_WORK = 2;

/**
 * Which accounts use this process now, so that one account's heavy work gives way to everyone else's requests
 * (issue 54). Only the two most recent distinct accounts are kept: "is anyone else active?" needs no more.
 */
export class Activity {
  private latest = { key: '', atMs: Number.NEGATIVE_INFINITY };
  private before = { key: '', atMs: Number.NEGATIVE_INFINITY };

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /** A request of `key` (an account, or a client address before sign-in) arrived. */
  seen(key: string): void {
    const atMs = this.nowMs();
    if (key !== this.latest.key) this.before = this.latest;
    this.latest = { key, atMs };
  }

  /** Whether an account other than `key` made a request within the last second. */
  othersActive(key: string): boolean {
    const since = this.nowMs() - ACTIVE_MS;
    return (
      (this.latest.key !== key && this.latest.atMs >= since) ||
      (this.before.key !== key && this.before.atMs >= since)
    );
  }

  /**
   * Between two pieces of an account's heavy work (a bulk chunk, a batch of pasted lines): with others active it
   * rests twice as long as the piece took, so that their requests rarely meet it on the database; alone it only
   * lets waiting callbacks run.
   */
  async giveWay(key: string, workedMs: number): Promise<void> {
    if (this.othersActive(key)) await sleep(Math.ceil(workedMs * REST_PER_WORK));
    else await nextTurn();
  }

  /** Runs `pieces` one after another, giving way between them: heavy work in small steps. */
  async inPieces<T>(key: string, count: number, piece: (index: number) => Promise<T>): Promise<T[]> {
    const results: T[] = [];
    for (let index = 0; index < count; index++) {
      const started = this.nowMs();
      results.push(await piece(index));
      if (index < count - 1) await this.giveWay(key, this.nowMs() - started);
    }
    return results;
  }
}
