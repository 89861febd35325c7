import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** Time heavy work rests for each unit of its own work while others are active: it takes at most a third. */
const REST_PER_WORK = 2;

/**
 * Heavy work of one account (a bulk request's chunks) in small pieces that give way to everyone else's requests
 * (issue 54). Whether other accounts are active now is the request turns' to say (request-turns.ts).
 */
export class Activity {
  constructor(
    private readonly othersActive: (key: string) => boolean,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /**
   * Runs `pieces` one after another. Between two, while others are active, it rests twice as long as the piece
   * took, so that their requests rarely meet it on the database; alone it only lets waiting callbacks run.
   */
  async inPieces<T>(key: string, count: number, piece: (index: number) => Promise<T>): Promise<T[]> {
    const results: T[] = [];
    for (let index = 0; index < count; index++) {
      const started = this.nowMs();
      results.push(await piece(index));
      if (index === count - 1) break;
      if (this.othersActive(key)) await sleep(Math.ceil((this.nowMs() - started) * REST_PER_WORK));
      else await nextTurn();
    }
    return results;
  }
}
