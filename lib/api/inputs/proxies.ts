import { Id } from '../schemas/common';
import { ProxyScheme } from '../schemas/proxies';
import { z } from '../zod';
import { DisplayName } from './common';

const HOST_LOOK = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/;

const Host = z.string().check(
  z.trim(),
  z.minLength(1, 'must not be empty'),
  z.maxLength(253, 'must be at most 253 characters'),
  z.regex(HOST_LOOK, 'must be a host name or an IP address'),
  // The look is right but the address is not one: 999.1.1.1, [1:2].
  z.refine(
    (host) => !HOST_LOOK.test(host) || URL.canParse(`http://${host}/`),
    'must be a host name or an IP address',
  ),
);

const Port = z
  .int('must be a whole number')
  .check(z.minimum(1, 'must be 1 to 65535'), z.maximum(65535, 'must be 1 to 65535'));

const Credential = z
  .string()
  .check(z.minLength(1, 'must not be empty'), z.maxLength(255, 'must be at most 255 characters'));

/**
 * Body of POST /v1/proxies and PUT /v1/proxies/:id. On PUT a missing password keeps the stored one; null clears it.
 * Without a name the proxy is named user@host:port.
 */
export const ProxyInput = z.strictObject({
  name: z.optional(DisplayName),
  scheme: ProxyScheme,
  host: Host,
  port: Port,
  username: z.optional(z.nullable(Credential)),
  password: z.optional(z.nullable(Credential)),
});

export type ProxyInput = z.input<typeof ProxyInput>;

/** The most lines one POST /v1/proxies/paste takes: a longer paste goes in parts, each its own request. */
export const MAX_PASTED_PROXIES = 1_000;

/** Body of POST /v1/proxies/paste: proxies as people paste them, one a line, each answered in its place. */
export const ProxyPaste = z.strictObject({
  lines: z
    .array(z.string().check(z.maxLength(2000, 'must be at most 2000 characters')))
    .check(
      z.minLength(1, 'must hold at least one line'),
      z.maxLength(MAX_PASTED_PROXIES, `must hold at most ${MAX_PASTED_PROXIES} lines`),
    ),
});

/** The most proxies one POST /v1/proxies/replace replaces. */
export const MAX_REPLACED_PROXIES = 1_000;

/**
 * Body of POST /v1/proxies/replace: every profile that uses a `from` proxy is pointed at its `to` proxy instead
 * (both saved proxies of the account), in one transaction.
 */
export const ProxyReplace = z.strictObject({
  replacements: z.array(z.strictObject({ from: Id, to: Id })).check(
    z.minLength(1, 'must hold at least one replacement'),
    z.maxLength(MAX_REPLACED_PROXIES, `must hold at most ${MAX_REPLACED_PROXIES} replacements`),
    z.refine(
      (pairs) => new Set(pairs.map(({ from }) => from)).size === pairs.length,
      'must replace each proxy once',
    ),
    z.refine((pairs) => pairs.every(({ from, to }) => from !== to), 'must replace a proxy by another'),
  ),
});
