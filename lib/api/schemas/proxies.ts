import { PROXY_SCHEMES } from '../proxy-url';
import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

export const ProxyScheme = z.enum(PROXY_SCHEMES);

/** A saved proxy. `url` is scheme://[user@]host:port and never carries the password. */
export const ProxyConfig = z.object({
  id: Id,
  name: z.string(),
  scheme: ProxyScheme,
  host: z.string(),
  port: z.number(),
  username: z.nullable(z.string()),
  has_password: z.boolean(),
  url: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ProxyList = listOf(ProxyConfig);

export type ProxyConfig = z.infer<typeof ProxyConfig>;

/**
 * Whether a proxy works (`ok`): its exit IP and its time zone (null when the check address does not tell it),
 * or the reason it does not as a sentence.
 */
export const ProxyCheck = z.object({
  ok: z.boolean(),
  ip: z.optional(z.string()),
  timezone: z.optional(z.nullable(z.string())),
  reason: z.optional(z.string()),
  took_ms: z.number(),
});

export type ProxyCheck = z.infer<typeof ProxyCheck>;
