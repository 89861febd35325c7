import { PROXY_SCHEMES } from '../proxy-url';
import { z } from '../zod';
import { DisplayName, Id, listOf, PageQuery, Timestamp } from './common';

export const ProxyScheme = z.enum(PROXY_SCHEMES);

const Host = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(253, 'must be at most 253 characters'),
    z.regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/, 'must be a host name or an IP address'),
  );
const Port = z
  .int('must be a whole number')
  .check(z.minimum(1, 'must be 1 to 65535'), z.maximum(65535, 'must be 1 to 65535'));
const Credential = z
  .string()
  .check(z.minLength(1, 'must not be empty'), z.maxLength(255, 'must be at most 255 characters'));

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

/** Body of POST /v1/proxies and PUT /v1/proxies/:id. On PUT a missing password keeps the stored one; null clears it. */
export const ProxyInput = z.strictObject({
  name: DisplayName,
  scheme: ProxyScheme,
  host: Host,
  port: Port,
  username: z.optional(z.nullable(Credential)),
  password: z.optional(z.nullable(Credential)),
});

export const ProxyList = listOf(ProxyConfig);
export const ProxyListQuery = z.object({ ...PageQuery });

export type ProxyConfig = z.infer<typeof ProxyConfig>;
export type ProxyInput = z.input<typeof ProxyInput>;
export type ProxyListQuery = z.input<typeof ProxyListQuery>;
