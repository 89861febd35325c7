import { PROXY_SCHEMES } from '../proxy-url';
import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

export const ProxyScheme = z.enum(PROXY_SCHEMES);

/**
 * Whether a proxy works (`ok`): its exit IP, the country (ISO 3166 code) and city the service's offline GeoIP
 * database places it in, and its time zone (null when neither the check address nor the database tells it), or
 * the reason it does not work as a sentence.
 */
export const ProxyCheck = z.object({
  ok: z.boolean(),
  ip: z.optional(z.string()),
  country: z.optional(z.nullable(z.string())),
  city: z.optional(z.nullable(z.string())),
  timezone: z.optional(z.nullable(z.string())),
  reason: z.optional(z.string()),
  took_ms: z.number(),
});

export type ProxyCheck = z.infer<typeof ProxyCheck>;

/** A proxy's last check, as its answer said, and when it was made. */
export const LastProxyCheck = z.extend(ProxyCheck, { checked_at: Timestamp });

/**
 * A saved proxy. `url` is scheme://[user@]host:port and never carries the password; `used_by` counts the profiles
 * that use it; `last_check` is its last check (null until one is made).
 */
export const ProxyConfig = z.object({
  id: Id,
  name: z.string(),
  scheme: ProxyScheme,
  host: z.string(),
  port: z.number(),
  username: z.nullable(z.string()),
  has_password: z.boolean(),
  url: z.string(),
  used_by: z.number(),
  last_check: z.nullable(LastProxyCheck),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ProxyList = listOf(ProxyConfig);

export type ProxyConfig = z.infer<typeof ProxyConfig>;
