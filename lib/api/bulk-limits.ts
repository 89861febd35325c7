/** The bulk actions on a selection of profiles (POST /v1/profiles/bulk). */
export const BULK_ACTIONS = [
  'set_proxy',
  'clear_proxy',
  'add_tags',
  'remove_tags',
  'run',
  'start',
  'stop',
  'delete',
  'export_cookies',
] as const;

export type BulkActionName = (typeof BULK_ACTIONS)[number];

/** The most profiles one export_cookies request reads the cookie jars of. */
export const MAX_COOKIE_EXPORTS = 100;

/**
 * How many profiles one request may act on, by action: changes of rows go to ten thousand in one statement;
 * what starts or stops a browser, queues a run or reads a cookie jar is one step per profile, and so fewer.
 */
export const BULK_LIMITS: Record<BulkActionName, number> = {
  set_proxy: 10_000,
  clear_proxy: 10_000,
  add_tags: 10_000,
  remove_tags: 10_000,
  run: 1_000,
  start: 1_000,
  stop: 1_000,
  delete: 1_000,
  export_cookies: MAX_COOKIE_EXPORTS,
};

/** The most ids one request may name, whatever its action. */
export const MAX_BULK_IDS = 10_000;

/** A bulk request costs one request of the hourly limit for every this many profiles it selects (at least one). */
export const PROFILES_PER_REQUEST = 100;

export function bulkCost(selected: number): number {
  return Math.max(1, Math.ceil(selected / PROFILES_PER_REQUEST));
}
