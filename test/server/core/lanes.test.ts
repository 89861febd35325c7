import { describe, expect, it } from 'vitest';
import { Activity } from '../../../server/core/activity';
import { Lanes } from '../../../server/core/lanes';

const later = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

describe('lanes', () => {
  it("run one key's work one at a time, in order, while other keys' run beside it", async () => {
    const lanes = new Lanes(8, () => new Error('full'));
    const order: string[] = [];
    const first = later();
    const a1 = lanes.run('a', async () => {
      order.push('a1 start');
      await first.opened;
      order.push('a1 end');
    });
    const a2 = lanes.run('a', async () => void order.push('a2'));
    await lanes.run('b', async () => void order.push('b1'));
    first.open();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('refuse one more than may wait, and go on after a failed piece of work', async () => {
    const lanes = new Lanes(1, () => new Error('the line is full'));
    const first = later();
    const running = lanes.run('a', () => first.opened.then(() => Promise.reject(new Error('broke'))));
    const waiting = lanes.run('a', async () => 'second');
    await expect(lanes.run('a', async () => 'third')).rejects.toThrow('the line is full');
    first.open();
    await expect(running).rejects.toThrow('broke');
    expect(await waiting).toBe('second');
    expect(await lanes.run('a', async () => 'fourth')).toBe('fourth');
  });
});

describe('activity', () => {
  it('gives way between pieces of heavy work: twice their time while others are active, none alone', async () => {
    let now = 0;
    let others = true;
    const activity = new Activity(
      () => others,
      () => now,
    );
    const started = performance.now();
    const pieces = await activity.inPieces('heavy', 3, async (index) => {
      now += 10;
      return index;
    });
    expect(pieces).toEqual([0, 1, 2]);
    // Two rests of 20 ms between three pieces of 10 (the clock of the pieces is the fake one).
    expect(performance.now() - started).toBeGreaterThanOrEqual(38);
    // Alone, pieces of 10 s each go on at once (a rest of 20 s would outlast the test's time limit).
    others = false;
    await activity.inPieces('heavy', 3, async () => {
      now += 10_000;
    });
  });
});
