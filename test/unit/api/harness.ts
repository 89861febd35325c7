import { type ClientOptions, createClient } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import type { QuotaSnapshot } from '../../../lib/api/rate-limit';
import { type Scripted, scriptedFetch } from './fake-fetch';

export const BASE_URL = 'http://127.0.0.1:8787';
export const API_KEY = 'pk_test_secret';
export const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);

/** A client over a scripted fetch, with sleeps and quota reports recorded instead of waited for. */
export function harness(script: Scripted[], options: Partial<ClientOptions> = {}) {
  const { fetch, requests } = scriptedFetch(...script);
  const sleeps: number[] = [];
  const quotas: QuotaSnapshot[] = [];
  const api = createClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    fetch,
    onQuota: (quota) => quotas.push(quota),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => NOW,
    ...options,
  });
  return { api, requests, sleeps, quotas };
}

/** The rejection of a call that must fail, for asserting on its fields. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
