import { parseProxyUrl } from '../proxy-url';
import { Id } from '../schemas/common';
import { carriedUserAgent, IDENTITY_PRESETS, Identity, LanguageTag, TimeZone } from '../schemas/identity';
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
  language: z.optional(LanguageTag),
  timezone: z.optional(TimeZone),
  screen: z.optional(
    z.strictObject({
      width: z.int().check(z.minimum(320, 'must be at least 320'), z.maximum(7680, 'must be at most 7680')),
      height: z.int().check(z.minimum(240, 'must be at least 240'), z.maximum(4320, 'must be at most 4320')),
    }),
  ),
});

/**
 * An identity as a client gives one: also nothing the browser would contradict. No platform version (Chromium on
 * Linux reports none: a site that knows that catches any other), and a window inside the screen's work area (one
 * ending past it is no person's). Answers keep the plain schema: identities stored before are corrected where a
 * start presents them.
 */
const GivenIdentity = Identity.check(
  z.superRefine((identity, ctx) => {
    const refuse = (path: string[], message: string) =>
      ctx.issues.push({ code: 'custom', message, input: identity, path });
    const { client_hints, screen, window } = identity;
    if (client_hints.platform_version !== '')
      refuse(
        ['client_hints', 'platform_version'],
        'must be empty: Chromium on Linux reports no platform version, and a site that knows it would catch any other',
      );
    if (window.width > screen.avail_width)
      refuse(['window', 'width'], `must be at most the screen's avail_width (${screen.avail_width})`);
    if (window.height > screen.avail_height)
      refuse(['window', 'height'], `must be at most the screen's avail_height (${screen.avail_height})`);
  }),
);

/** Room for a host name and the longest user name and password, percent-encoded. */
const MAX_PROXY_URL_LENGTH = 2000;

export const ProxyUrl = z.string().check(
  z.trim(),
  z.maxLength(MAX_PROXY_URL_LENGTH, {
    error: `must be at most ${MAX_PROXY_URL_LENGTH} characters`,
    abort: true,
  }),
  z.superRefine((value, ctx) => {
    const parsed = parseProxyUrl(value);
    if ('error' in parsed) ctx.issues.push({ code: 'custom', message: parsed.error, input: value });
  }),
);

const IdentityPreset = z.enum(IDENTITY_PRESETS);

export const Notes = z.string().check(z.maxLength(2000, 'must be at most 2000 characters'));

const oneProxy = z.refine<{ proxy?: string | null; proxy_id?: string | null }>(
  (body) => !(body.proxy && body.proxy_id),
  {
    message: 'give either proxy or proxy_id, not both',
    path: ['proxy_id'],
  },
);

const profileFields = {
  name: DisplayName,
  proxy: z.optional(z.nullable(ProxyUrl)),
  proxy_id: z.optional(z.nullable(Id)),
  tags: z.optional(Tags),
  notes: z.optional(Notes),
  fingerprint: z.optional(Fingerprint),
  identity_preset: z.optional(IdentityPreset),
};

/** Body of POST /v1/profiles. `proxy` is scheme://[user:pass@]host:port; `proxy_id` names a saved proxy instead. */
export const ProfileCreate = z
  .strictObject({
    ...profileFields,
    /** The identity to present; else one is generated (of `identity_preset`'s device class when given). */
    identity: z.optional(GivenIdentity),
  })
  .check(
    oneProxy,
    z.refine((body) => !(body.identity && body.identity_preset), {
      message: 'give either identity or identity_preset, not both',
      path: ['identity_preset'],
    }),
  );

/**
 * What an agent sends to create a profile: the body of POST /v1/profiles less a whole `identity` (a few KB of
 * schema in every tools list); one is generated, of `identity_preset`'s device class when given.
 */
export const AgentProfileCreate = z.strictObject(profileFields).check(oneProxy);

/**
 * Body of PATCH /v1/profiles/:id: the fields to change, the others stay. A new `proxy` (or `null`) replaces the
 * profile's own proxy and drops `proxy_id`, and the other way round; `fingerprint` replaces the whole fingerprint.
 */
const updateFields = {
  name: z.optional(DisplayName),
  proxy: z.optional(z.nullable(ProxyUrl)),
  proxy_id: z.optional(z.nullable(Id)),
  tags: z.optional(Tags),
  notes: z.optional(Notes),
  fingerprint: z.optional(Fingerprint),
  /** True: a newly generated identity replaces the profile's (of `identity_preset`'s device class when given). */
  new_identity: z.optional(z.boolean()),
  identity_preset: z.optional(IdentityPreset),
};

const presetWithNewIdentity = z.refine<{ identity_preset?: string; new_identity?: boolean }>(
  (body) => !body.identity_preset || body.new_identity === true,
  { message: 'identity_preset goes with new_identity: true', path: ['identity_preset'] },
);

export const ProfileUpdate = z.strictObject({ ...updateFields, identity: z.optional(GivenIdentity) }).check(
  oneProxy,
  z.refine((body) => !(body.identity && body.new_identity), {
    message: 'give either identity or new_identity, not both',
    path: ['new_identity'],
  }),
  presetWithNewIdentity,
);

/** What an agent sends to change a profile: the body of PATCH /v1/profiles/:id less a whole `identity`. */
export const AgentProfileUpdate = z.strictObject(updateFields).check(oneProxy, presetWithNewIdentity);

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
