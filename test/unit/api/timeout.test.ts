import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../../lib/api/errors';
import { jsonResponse, networkFailure } from './fake-fetch';
import { account, run } from './fixtures';
import { failure, harness } from './harness';

afterEach(() => {
  vi.useRealTimers();
});

/** Settles `promise` into a readable state, so fake time can be advanced while it is pending. */
function track(promise: Promise<unknown>) {
  const state: { error?: ApiError; settled: boolean } = { settled: false };
  promise.then(
    () => {
      state.settled = true;
    },
    (error: ApiError) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

async function timesOutAfter(call: Promise<unknown>, ms: number) {
  const state = track(call);
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(state.settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(state.error?.code).toBe('timeout');
}

describe('timeouts', () => {
  it('a silent service times out with a sentence, without retrying', async () => {
    const { api, requests, sleeps } = harness(['hang', jsonResponse(account)], { timeoutMs: 20 });
    const error = await failure(api.getAccount());
    expect(error).toMatchObject({
      status: 0,
      code: 'timeout',
      endpoint: 'GET /v1/account',
      userMessage: 'The service took too long to answer.',
    });
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('waits 15 s by default', async () => {
    vi.useFakeTimers();
    const { api } = harness(['hang']);
    await timesOutAfter(api.getAccount(), 15_000);
  });

  it('takes a timeout per call', async () => {
    vi.useFakeTimers();
    const { api } = harness(['hang']);
    await timesOutAfter(api.getAccount({ timeoutMs: 2_000 }), 2_000);
  });

  it('gives a long-poll its wait plus 5 s', async () => {
    vi.useFakeTimers();
    const { api, requests } = harness(['hang', jsonResponse(run)]);
    await timesOutAfter(api.getRun('run_1', { wait: 20, after_version: 3 }), 25_000);
    expect(requests).toHaveLength(1);
  });

  it('keeps a long-poll under the 30 s an MV3 worker allows', async () => {
    vi.useFakeTimers();
    const { api } = harness(['hang']);
    await timesOutAfter(api.getRun('run_1', { wait: 25 }), 29_000);
  });

  it('never gives a short long-poll less than the usual timeout', async () => {
    vi.useFakeTimers();
    const { api } = harness(['hang']);
    await timesOutAfter(api.getRun('run_1', { wait: 2 }), 15_000);
  });

  it('leaves no timer behind once answered', async () => {
    vi.useFakeTimers();
    const { api } = harness([jsonResponse(account)]);
    await api.getAccount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('cancelling', () => {
  it('a caller’s signal cancels the request', async () => {
    const { api, requests } = harness(['hang', jsonResponse(account)]);
    const controller = new AbortController();
    const pending = failure(api.getAccount({ signal: controller.signal }));
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ status: 0, code: 'aborted', userMessage: 'The request was cancelled.' });
    expect(requests).toHaveLength(1);
  });

  it('an already cancelled signal never waits', async () => {
    const { api } = harness(['hang']);
    const error = await failure(api.getAccount({ signal: AbortSignal.abort() }));
    expect(error.code).toBe('aborted');
  });

  it('a signal cancelled during the backoff stops the retries', async () => {
    const controller = new AbortController();
    const { api, requests } = harness([networkFailure(), jsonResponse(account)], {
      sleep: async () => controller.abort(),
    });
    const error = await failure(api.getAccount({ signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(requests).toHaveLength(1);
  });
});
