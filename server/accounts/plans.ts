import type { Plan } from '../../lib/api/schemas/account';

/** Requests per rolling hour; null is unlimited. */
export const HOURLY_LIMITS: Record<Plan, number | null> = {
  free: 100,
  premium: 1000,
  enterprise: null,
};

/** Sessions an account may hold at once; Enterprise's cap is the operator's setting. */
export const SESSION_CAPS: Record<Exclude<Plan, 'enterprise'>, number> = {
  free: 2,
  premium: 10,
};

/** The sessions a plan may hold at once on this service. */
export function sessionCap(plan: Plan, enterpriseMaxSessions: number): number {
  return plan === 'enterprise' ? enterpriseMaxSessions : SESSION_CAPS[plan];
}

/** The bytes a profile's downloads may hold (kept in its folder until the profile is deleted). */
export const DOWNLOAD_CAPS: Record<Plan, number> = {
  free: 100 * 2 ** 20,
  premium: 1024 * 2 ** 20,
  enterprise: 5 * 1024 * 2 ** 20,
};

/** Proxies an account may keep saved; null is no cap. */
export const PROXY_CAPS: Record<Plan, number | null> = {
  free: 1_000,
  premium: 10_000,
  enterprise: null,
};
