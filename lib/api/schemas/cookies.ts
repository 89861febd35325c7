import { z } from '../zod';

/**
 * A cookie of a profile, in the shape cookie managers exchange: `expires` in epoch seconds, null for a cookie
 * that ends with the session; `same_site` null when the cookie does not say.
 */
export const Cookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.nullable(z.number()),
  secure: z.boolean(),
  http_only: z.boolean(),
  same_site: z.nullable(z.enum(['Strict', 'Lax', 'None'])),
});

export const CookieList = z.array(Cookie);

export const CookiesImported = z.object({
  /** How many cookies the profile took. */
  imported: z.number(),
  /**
   * Cookies without an expiry last as long as a browser session: imported into a stopped profile, they would be
   * gone when its browser next starts, so they are not taken (import them while its session runs).
   */
  session_cookies_not_kept: z.number(),
  /** Whether the profile's other cookies were removed first (`?replace=true`). */
  replaced: z.boolean(),
});

export type Cookie = z.infer<typeof Cookie>;

export type CookiesImported = z.infer<typeof CookiesImported>;
