import { expect, it } from 'vitest';
import { createLogger } from '../../../server/core/log';
import type { SessionParts } from '../../../server/sessions/parts';
import { createSessionStopper } from '../../../server/sessions/stop-session';

/* A browser of a session stopped as lost is ended by the node's sweep and by a stop asked through another node,
 * often at once: the second must not answer before the browser is gone (a cluster test counted its Chromium). */

it('makes a second end of a lost session’s browser wait for the first, not answer at once', async () => {
  let finish = () => {};
  let stops = 0;
  const browser = {
    stop: () =>
      new Promise<void>((resolve) => {
        stops++;
        finish = resolve;
      }),
  };
  const stopper = createSessionStopper({
    browsers: new Map([['ses_1', browser]]),
    launching: new Map(),
    log: createLogger({ write: () => {} }),
  } as unknown as SessionParts);
  const answered: string[] = [];
  const sweep = stopper.endBrowser('ses_1').then(() => answered.push('sweep'));
  const asked = stopper.endBrowser('ses_1').then(() => answered.push('asked'));
  await new Promise((resolve) => setImmediate(resolve));
  expect(answered).toEqual([]);
  finish();
  await Promise.all([sweep, asked]);
  expect(answered.sort()).toEqual(['asked', 'sweep']);
  expect(stops).toBe(1);
  // Once it has ended there is nothing left to wait for.
  await stopper.endBrowser('ses_1');
});
