import { type ApiClient, createClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { QuotaSnapshot } from '../../lib/api/rate-limit';
import type { Account } from '../../lib/api/schemas/account';
import { t } from '../../lib/i18n';
import { connection, type PlanLimits, plan, quota } from '../../lib/storage';
import { change, inTurn } from './in-turn';

let quotaWrites: Promise<unknown> = Promise.resolve();

function clientOf(baseUrl: string, apiKey: string, onQuota: (snapshot: QuotaSnapshot) => void): ApiClient {
  // `fetch` is looked up at call time, so that tests can stand in for it.
  return createClient({ baseUrl, apiKey, fetch: (input, init) => fetch(input, init), onQuota });
}

/** A client for the configured service, or null while no key is set. Every answer's quota is saved. */
export async function connect(): Promise<ApiClient | null> {
  const { serviceUrl, apiKey } = await connection.getValue();
  return apiKey
    ? clientOf(serviceUrl, apiKey, (snapshot) => {
        quotaWrites = quotaWrites.then(() => quota.setValue(snapshot)).catch(() => undefined);
      })
    : null;
}

/**
 * Checks an address and key the person typed with one request, and saves them (with the quota seen) only
 * once the service accepted the key.
 */
export async function saveConnection(
  serviceUrl: string,
  apiKey: string,
): Promise<{ account: Account; quota: QuotaSnapshot | null }> {
  let seen: QuotaSnapshot | null = null;
  const account = await clientOf(serviceUrl, apiKey, (snapshot) => {
    seen = snapshot;
  }).getAccount();
  await inTurn(() =>
    Promise.all([
      connection.setValue({ serviceUrl, apiKey }),
      seen && quota.setValue(seen),
      plan.setValue(limitsOf(account)),
    ]),
  );
  return { account, quota: seen };
}

const limitsOf = ({
  plan,
  hourly_limit,
  session_limit,
  name,
  member,
  role,
  may_not,
}: Account): PlanLimits => ({
  name: plan,
  hourlyLimit: hourly_limit,
  sessionLimit: session_limit,
  workspace: name,
  ...(member ? { member } : {}),
  ...(role ? { role } : {}),
  ...(may_not ? { mayNot: may_not } : {}),
});

/** How long the plan, the workspace and the member's role read from the service are taken as still true. */
const PLAN_FRESH_MS = 30_000;
let planReadAt = Number.NEGATIVE_INFINITY;

/**
 * Reads the plan's limits, the key's workspace and its member's role again when the popup opens, at most every
 * PLAN_FRESH_MS: an owner may have changed the role (or the scope) since, and the popup offers what the role may do.
 */
export async function knowPlan(now = Date.now()): Promise<void> {
  if ((await plan.getValue())?.workspace && now - planReadAt < PLAN_FRESH_MS) return;
  const api = await connect();
  if (!api) return;
  await plan.setValue(limitsOf(await api.getAccount()));
  planReadAt = now;
}

export async function forgetKey(): Promise<void> {
  await plan.setValue(null);
  await change(connection, (saved) => ({ ...saved, apiKey: null }));
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
