/**
 * Each account's turns at being served (issue 54): an account sending many requests at once, or requests that take
 * long, shares the process by time with the other active accounts instead of taking it.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../server/http/env';
import { RequestTurns, takeTurns } from '../../../server/http/request-turns';

function turnsAt() {
  const clock = { now: 0 };
  const turns = new RequestTurns(() => clock.now);
  return { clock, turns };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('request turns', () => {
  it('know whether another account made a request within the last second', async () => {
    const { clock, turns } = turnsAt();
    expect(turns.othersActive('a')).toBe(false);
    (await turns.take('a'))?.();
    expect(turns.othersActive('a')).toBe(false);
    expect(turns.othersActive('b')).toBe(true);
    (await turns.take('b'))?.();
    (await turns.take('b'))?.();
    clock.now = 900;
    expect(turns.othersActive('a')).toBe(true);
    expect(turns.othersActive('b')).toBe(true);
    clock.now = 1001;
    (await turns.take('b'))?.();
    expect(turns.othersActive('b')).toBe(false);
    expect(turns.othersActive('c')).toBe(true);
  });

  it('serve 6 requests of an account alone at once, and 2 once another account is active', async () => {
    const { turns } = turnsAt();
    const alone = await Promise.all(Array.from({ length: 6 }, () => turns.take('a')));
    let seventh: (() => void) | null = null;
    const waiting = turns.take('a').then((giveBack) => {
      seventh = giveBack;
    });
    await settled();
    expect(seventh).toBeNull();
    const other = await turns.take('b');
    for (const giveBack of alone.slice(0, 4)) giveBack?.();
    await settled();
    expect(seventh).toBeNull();
    alone[4]?.();
    await waiting;
    expect(seventh).not.toBeNull();
    for (const giveBack of [alone[5], seventh, other]) (giveBack as (() => void) | null)?.();
  });

  it('keep an account served more than another active one waiting until the other catches up', async () => {
    const { clock, turns } = turnsAt();
    (await turns.take('quiet'))?.();
    const heavy = await turns.take('heavy');
    clock.now += 30;
    heavy?.();
    let next: (() => void) | null = null;
    const waiting = turns.take('heavy').then((giveBack) => {
      next = giveBack;
    });
    await settled();
    expect(next).toBeNull();
    // The quiet account is served at once, its 30 ms idle counted past 20 ms at its half (5 ms), and once it has
    // been served past the heavy one's 30 ms, less 5, the heavy one is next.
    const quiet = await turns.take('quiet');
    clock.now += 26;
    quiet?.();
    await waiting;
    expect(next).not.toBeNull();
    (next as (() => void) | null)?.();
  });

  it('count the time an active account asks nothing at its share: one asking request after request beside a poller is never held', async () => {
    const { clock, turns } = turnsAt();
    // A batch's owner asks every 250 ms; another account asks 4 ms requests one after another, 40 a second.
    for (let ms = 0; ms < 2000; ms += 25) {
      if (ms % 250 === 0) {
        const poll = await turns.take('poller');
        clock.now += 1;
        poll?.();
      }
      const taken = await Promise.race([turns.take('asker'), settled().then(() => 'held' as const)]);
      expect(taken, `at ${ms} ms`).not.toBe('held');
      clock.now += 4;
      (taken as (() => void) | null)?.();
      clock.now = ms + 25;
    }
  });

  it('count a request refused for sending too much (429) as 50 ms served: a flood of refusals waits for the others', async () => {
    const { clock, turns } = turnsAt();
    const app = new Hono<AppEnv>();
    app.use(
      '*',
      takeTurns(turns, (c) => c.req.header('X-Who') ?? ''),
    );
    app.get('/', (c) => c.body(null, c.req.header('X-Who') === 'guesser' ? 429 : 204));
    const as = async (who: string) => app.request('/', { headers: { 'X-Who': who } });
    expect((await as('quiet')).status).toBe(204);
    expect((await as('guesser')).status).toBe(429);
    let answered = false;
    const next = as('guesser').then(() => {
      answered = true;
    });
    await settled();
    expect(answered).toBe(false);
    const quiet = await turns.take('quiet');
    clock.now += 46;
    quiet?.();
    await next;
    expect(answered).toBe(true);
  });

  it('serve a waiting account once the others stop being active', async () => {
    const { clock, turns } = turnsAt();
    (await turns.take('quiet'))?.();
    const heavy = await turns.take('heavy');
    clock.now += 40;
    heavy?.();
    const waiting = turns.take('heavy');
    clock.now += 1001;
    expect(await waiting).not.toBeNull();
  });

  it('give a turn back once, however often it is given back, and refuse a line longer than 1,000', async () => {
    const { turns } = turnsAt();
    const served = await Promise.all(Array.from({ length: 6 }, () => turns.take('a')));
    const line = Array.from({ length: 1000 }, () => turns.take('a'));
    expect(await turns.take('a')).toBeNull();
    served[0]?.();
    served[0]?.();
    const first = await line[0];
    expect(first).not.toBeNull();
    let second: (() => void) | null = null;
    void line[1]?.then((giveBack) => {
      second = giveBack;
    });
    await settled();
    expect(second).toBeNull();
    for (const giveBack of served) giveBack?.();
    for (const taken of line) (await taken)?.();
  });

  it('stop counting a request served longer than 250 ms: a long poll does not hold its account', async () => {
    const turns = new RequestTurns();
    await Promise.all(Array.from({ length: 6 }, () => turns.take('a')));
    const started = performance.now();
    const next = await turns.take('a');
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    next?.();
  });
});
