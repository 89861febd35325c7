/** The orders GET /v1/profiles lists in (`sort`); `created`, newest first, unless asked. */
export const PROFILE_SORTS = ['created', 'name', 'last_used', 'status'] as const;
export type ProfileSortName = (typeof PROFILE_SORTS)[number];
