/**
 * Work of one key at a time, in the order asked: each key's next piece of work starts when its last one ended.
 * At most `mostWaiting` wait behind the one under way; one more is refused with `full()`'s error.
 */
export class Lanes {
  private readonly lanes = new Map<string, { pending: number; last: Promise<unknown> }>();

  constructor(
    private readonly mostWaiting: number,
    private readonly full: () => Error,
  ) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(key) ?? { pending: 0, last: Promise.resolve() };
    if (lane.pending > this.mostWaiting) throw this.full();
    lane.pending++;
    this.lanes.set(key, lane);
    const turn = lane.last.then(work);
    lane.last = turn.catch(() => {});
    try {
      return await turn;
    } finally {
      if (--lane.pending === 0) this.lanes.delete(key);
    }
  }
}
