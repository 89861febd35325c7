import type { Plan } from '../../lib/api/schemas/account';

/** Requests per rolling hour; null is unlimited. */
export const HOURLY_LIMITS: Record<Plan, number | null> = {
  free: 100,
  premium: 1000,
  enterprise: null,
};
