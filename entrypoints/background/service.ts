import { type ApiClient, createClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { QuotaSnapshot } from '../../lib/api/rate-limit';
import type { Account } from '../../lib/api/schemas/account';
import { connection, quota } from '../../lib/storage';
import { t } from './i18n';

let quotaWrites: Promise<unknown> = Promise.resolve();

/** A client for the configured service, or null while no key is set. Every answer's quota is saved. */
export async function connect(): Promise<ApiClient | null> {
  const { serviceUrl, apiKey } = await connection.getValue();
  if (!apiKey) return null;
  return createClient({
    baseUrl: serviceUrl,
    apiKey,
    // Looked up at call time, so that tests can stand in for it.
    fetch: (input, init) => fetch(input, init),
    onQuota: (snapshot) => {
      quotaWrites = quotaWrites.then(() => quota.setValue(snapshot)).catch(() => undefined);
    },
  });
}

/** Checks an address and key the person typed (before they are saved) with one request. */
export async function checkService(
  serviceUrl: string,
  apiKey: string,
): Promise<{ account: Account; quota: QuotaSnapshot | null }> {
  let seen: QuotaSnapshot | null = null;
  const api = createClient({
    baseUrl: serviceUrl,
    apiKey,
    fetch: (input, init) => fetch(input, init),
    onQuota: (snapshot) => {
      seen = snapshot;
    },
  });
  const account = await api.getAccount();
  return { account, quota: seen };
}

/** Like `connect`, for actions the person asked for: no key is an error with a sentence. */
export async function requireApi(): Promise<ApiClient> {
  const api = await connect();
  if (api) return api;
  const userMessage = t('noKey');
  const info = {
    endpoint: '',
    status: 0,
    code: 'no_key',
    detail: null,
    fieldErrors: [],
    retryAfter: null,
    userMessage,
  };
  throw new ApiError(info, 'no API key is set');
}

/** The last quota snapshot, once the answers already received have been saved. */
export async function latestQuota(): Promise<QuotaSnapshot | null> {
  await quotaWrites;
  return quota.getValue();
}

/** A failure as the person should read it. */
export function sentenceOf(error: unknown): string {
  return error instanceof ApiError ? error.userMessage : t('workerFailed');
}
