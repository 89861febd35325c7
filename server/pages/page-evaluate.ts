import { setTimeout as sleep } from 'node:timers/promises';
import type { CDPSession, Page } from 'playwright-core';
import { PageProblem } from '../core/domain-errors';
import { timeLimit } from '../core/time-limit';

import { bytes, seconds } from './sentences';

/** How long a page whose script still runs may take to answer a probe before that script is terminated. */
const PROBE_MS = 1_000;
/** The most of a thrown error's text an answer carries (a page writes the error, and its stack). */
const MAX_ERROR_CHARS = 1_000;

/**
 * Runs in the page's main world, where the page may have replaced anything it can reach (`JSON.stringify`,
 * `Blob`, `eval`): what it may not change is `typeof` and the length of a string, so whatever it does, the
 * answer is a string of at most `limit` UTF-16 units, a number (the size of a text over it), false (no JSON)
 * or undefined. Bytes are counted again in the service.
 */
const IN_PAGE = `(async (expression, limit) => {
  let value = (0, eval)(expression);
  if (typeof value === 'function') value = value();
  const text = JSON.stringify(await value);
  if (text === undefined) return undefined;
  if (typeof text !== 'string') return false;
  return text.length <= limit ? text : text.length;
})`;

interface Evaluated {
  result?: { value?: unknown };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/**
 * Evaluates an expression in the page's main world over a DevTools session of its own, awaiting a promise,
 * and answers its JSON value, bounded in the service. The evaluation ends at the time limit or when `stop`
 * aborts (the client went away): the session is detached, so nothing waits on the page's promise any more,
 * and a script still running on the page's thread is terminated, so the next page tool finds the page free.
 */
export async function evaluateInPage(
  page: Page,
  expression: string,
  {
    maxBytes,
    stop,
    timeLimitMs,
  }: {
    maxBytes: number;
    stop: AbortSignal;
    /** How long it may take, a promise's wait included, before the evaluation is ended. */
    timeLimitMs: number;
  },
): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  const limit = timeLimit(timeLimitMs, stop);
  const ended = limit.signal;
  try {
    const evaluation = cdp.send('Runtime.evaluate', {
      expression: `${IN_PAGE}(${JSON.stringify(expression)}, ${maxBytes})`,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
      // Ends a script that never yields; a promise that never settles is ended below.
      timeout: timeLimitMs,
    }) as Promise<Evaluated>;
    const outcome = await Promise.race([evaluation, abortOf(ended)]);
    if (outcome === null) {
      await endEvaluation(cdp);
      throw new PageProblem(
        stop.aborted
          ? 'The evaluation was ended: the call was abandoned.'
          : `The evaluation did not finish within ${seconds(timeLimitMs)} (a promise that never settles, or a script that does not end); it was ended and the page is free for the next tool.`,
      );
    }
    return answerOf(outcome, maxBytes);
  } finally {
    limit.clear();
    await cdp.detach().catch(() => {});
  }
}

function abortOf(signal: AbortSignal): Promise<null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
}

/** A page whose thread is still busy does not answer a probe: its running script is terminated. */
async function endEvaluation(cdp: CDPSession): Promise<void> {
  const probe = cdp.send('Runtime.evaluate', { expression: '0' }).then(
    () => true,
    () => true,
  );
  const answered = await Promise.race([probe, sleep(PROBE_MS, false)]);
  if (!answered) await cdp.send('Runtime.terminateExecution').catch(() => {});
}

function answerOf(outcome: Evaluated, maxBytes: number): unknown {
  if (outcome.exceptionDetails) {
    const { text, exception } = outcome.exceptionDetails;
    const said = String(exception?.description ?? text ?? 'an exception');
    throw new PageProblem(
      `The expression threw: ${said.length > MAX_ERROR_CHARS ? `${said.slice(0, MAX_ERROR_CHARS)}… (cut)` : said}`,
    );
  }
  const value = outcome.result?.value;
  if (value === undefined) return null;
  if (value === false) throw new PageProblem('Its result cannot be turned into JSON.');
  const size = typeof value === 'number' ? value : typeof value === 'string' ? Buffer.byteLength(value) : -1;
  if (size < 0) throw new PageProblem('Its result cannot be turned into JSON.');
  if (size > maxBytes)
    throw new PageProblem(
      `Its result is ${typeof value === 'number' ? 'at least ' : ''}${bytes(size)} as JSON, over the ${bytes(maxBytes)} an answer may carry; read a part of it.`,
    );
  try {
    return JSON.parse(value as string);
  } catch {
    throw new PageProblem('Its result cannot be turned into JSON (the page answered text that is not JSON).');
  }
}
