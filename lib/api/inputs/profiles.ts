import { parseProxyUrl } from '../proxy-url';
import { Id } from '../schemas/common';
import { carriedUserAgent, IDENTITY_PRESETS, Identity } from '../schemas/identity';
import { z } from '../zod';
import { DisplayName, Tags } from './common';

/**
 * Explicit settings that win over the profile's identity when it starts: user agent, language, time zone, window
 * size. Each one left out is the identity's.
 */
export const Fingerprint = z.strictObject({
  user_agent: z.optional(
    z.string().check(
      z.trim(),
      z.minLength(1),
      z.maxLength(500, 'must be at most 500 characters'),
      // It is sent as a request header, which cannot hold them: Chromium ignored such a one without a word.
      z.regex(/^\P{Cc}*$/u, 'must not contain line breaks or other control characters'),
      carriedUserAgent,
    ),
  ),
  language: z.optional(
    z.string().check(z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US')),
  ),
  timezone: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(UTC|[A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2})$/,
          'must be an IANA time zone such as Europe/Berlin',
        ),
      ),
  ),
  screen: z.optional(
    z.strictObject({
      width: z.int().check(z.minimum(320, 'must be at least 320'), z.maximum(7680, 'must be at most 7680')),
      height: z.int().check(z.minimum(240, 'must be at least 240'), z.maximum(4320, 'must be at most 4320')),
    }),
  ),
});

export const ProxyUrl = z.string().check(
  z.trim(),
  z.superRefine((value, ctx) => {
    const parsed = parseProxyUrl(value);
    if ('error' in parsed) ctx.issues.push({ code: 'custom', message: parsed.error, input: value });
  }),
);

const IdentityPreset = z.enum(IDENTITY_PRESETS);

const Notes = z.string().check(z.maxLength(2000, 'must be at most 2000 characters'));

/** Body of POST /v1/profiles. `proxy` is scheme://[user:pass@]host:port; `proxy_id` names a saved proxy instead. */
export const ProfileCreate = z
  .strictObject({
    name: DisplayName,
    proxy: z.optional(z.nullable(ProxyUrl)),
    proxy_id: z.optional(z.nullable(Id)),
    tags: z.optional(Tags),
    notes: z.optional(Notes),
    fingerprint: z.optional(Fingerprint),
    /** The identity to present; else one is generated (of `identity_preset`'s device class when given). */
    identity: z.optional(Identity),
    identity_preset: z.optional(IdentityPreset),
  })
  .check(
    z.refine((body) => !(body.proxy && body.proxy_id), {
      message: 'give either proxy or proxy_id, not both',
      path: ['proxy_id'],
    }),
    z.refine((body) => !(body.identity && body.identity_preset), {
      message: 'give either identity or identity_preset, not both',
      path: ['identity_preset'],
    }),
  );

/**
 * Body of PATCH /v1/profiles/:id: the fields to change, the others stay. A new `proxy` (or `null`) replaces the
 * profile's own proxy and drops `proxy_id`, and the other way round; `fingerprint` replaces the whole fingerprint.
 */
export const ProfileUpdate = z
  .strictObject({
    name: z.optional(DisplayName),
    proxy: z.optional(z.nullable(ProxyUrl)),
    proxy_id: z.optional(z.nullable(Id)),
    tags: z.optional(Tags),
    notes: z.optional(Notes),
    fingerprint: z.optional(Fingerprint),
    identity: z.optional(Identity),
    /** True: a newly generated identity replaces the profile's (of `identity_preset`'s device class when given). */
    new_identity: z.optional(z.boolean()),
    identity_preset: z.optional(IdentityPreset),
  })
  .check(
    z.refine((body) => !(body.proxy && body.proxy_id), {
      message: 'give either proxy or proxy_id, not both',
      path: ['proxy_id'],
    }),
    z.refine((body) => !(body.identity && body.new_identity), {
      message: 'give either identity or new_identity, not both',
      path: ['new_identity'],
    }),
    z.refine((body) => !body.identity_preset || body.new_identity === true, {
      message: 'identity_preset goes with new_identity: true',
      path: ['identity_preset'],
    }),
  );

/**
 * Body of POST /v1/profiles/:id/clone: the copy's name (else the original's with " (copy)"). The copy gets a new
 * identity, a separate device, unless `keep_identity` is true.
 */
export const ProfileClone = z.strictObject({
  name: z.optional(DisplayName),
  keep_identity: z.optional(z.boolean()),
});

export type Fingerprint = z.infer<typeof Fingerprint>;
export type ProfileUpdate = z.input<typeof ProfileUpdate>;

export type ProfileCreate = z.input<typeof ProfileCreate>;
