import { z } from '../zod';

/**
 * OS families a profile may claim. Only the host's own: its fonts, emoji and text metrics are Linux's, and a page
 * that measures them would catch a Windows or macOS claim as a lie (see docs/identity.md).
 */
export const OS_FAMILIES = ['linux'] as const;

/** Device classes that generate a coherent set (screen, cores and memory together) from real-world data. */
export const IDENTITY_PRESETS = ['laptop', 'desktop', 'large_screen'] as const;

const Text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const Size = (max: number) =>
  z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(max, `must be at most ${max}`));
/** A BCP 47 language tag as browsers send them (35 characters hold any real one). */
export const LanguageTag = z
  .string()
  .check(
    z.maxLength(35, { error: 'must be at most 35 characters', abort: true }),
    z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US'),
  );
/** An IANA time zone name (the longest is 32 characters). */
export const TimeZone = z
  .string()
  .check(
    z.maxLength(64, { error: 'must be at most 64 characters', abort: true }),
    z.regex(/^(UTC|[A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2})$/, 'must be an IANA time zone such as Europe/Berlin'),
  );

/**
 * A user agent a Linux identity can carry: one naming another system or another browser would be contradicted by
 * `navigator.platform`, the client hints and `Sec-CH-UA-Platform`, which say Linux and Chromium.
 */
export const carriedUserAgent = z.refine((agent: unknown) => !OTHER_SYSTEM_OR_BROWSER.test(String(agent)), {
  message:
    'must be a Linux Chrome user agent: the platform, client hints and Sec-CH-UA-Platform say Linux and Chromium, which another system or browser would contradict',
});
const OTHER_SYSTEM_OR_BROWSER =
  /Windows|Win64|Macintosh|Mac OS X|Android|iPhone|iPad|CrOS|Mobile|Firefox\/|EdgA?\/|OPR\/|YaBrowser\//;

/** Exactly `value`: an identity showing anything else would be contradicted by the rest, which is Linux's. */
const only = (value: string) => {
  const message = `must be ${value}, as the rest of the identity is`;
  return z.string().check(
    z.maxLength(value.length, { message, abort: true }),
    z.refine((text) => text === value, { message }),
  );
};

/** Where the profile says it is: `auto` follows the proxy's exit IP (or the host without a proxy). */
export const IdentityLocation = z.strictObject({
  timezone: z.union([z.literal('auto'), TimeZone]),
  languages: z.union([
    z.literal('auto'),
    z.array(LanguageTag).check(z.minLength(1, 'must name at least one language'), z.maxLength(10)),
  ]),
  locale: z.union([z.literal('auto'), LanguageTag]),
  geolocation: z.union([
    z.literal('auto'),
    z.null(),
    z.strictObject({
      latitude: z.number().check(z.minimum(-90), z.maximum(90)),
      longitude: z.number().check(z.minimum(-180), z.maximum(180)),
      accuracy: z.number().check(z.minimum(1), z.maximum(100_000)),
    }),
  ]),
});

/**
 * A profile's browser identity: one device, frozen for the profile's life, and its location. The browser version
 * in `user_agent` is the one it was generated with; each start presents the version of the Chromium that actually
 * runs the profile in its place, so an upgrade moves only the version.
 */
export const Identity = z.strictObject({
  os: z.strictObject({ family: z.enum(OS_FAMILIES), version: Text(40) }),
  user_agent: Text(500).check(
    z.regex(/^\P{Cc}+$/u, 'must be one line of printable characters'),
    carriedUserAgent,
  ),
  /** The brands and full version list are not stored: each start presents those of the Chromium it runs. */
  client_hints: z.strictObject({
    platform: only('Linux'),
    platform_version: Text(40),
    architecture: Text(20),
    bitness: Text(10),
    model: Text(100),
    mobile: z.boolean(),
  }),
  navigator_platform: only('Linux x86_64'),
  hardware: z.strictObject({
    cpu_cores: Size(256),
    memory_gb: z.number().check(z.minimum(0.25), z.maximum(64)),
    touch_points: z.int().check(z.minimum(0), z.maximum(10)),
  }),
  screen: z.strictObject({
    width: Size(7680),
    height: Size(4320),
    avail_width: Size(7680),
    avail_height: Size(4320),
    color_depth: z.int().check(z.minimum(8), z.maximum(48)),
    pixel_ratio: z.number().check(z.minimum(0.5), z.maximum(4)),
  }),
  window: z.strictObject({ width: Size(7680), height: Size(4320) }),
  /**
   * The GPU WebGL names; null (what new identities claim) shows the host's own, as the limits and extensions a page
   * reads are always the host's: a GPU named beside them would be contradicted by them.
   */
  webgl: z.nullable(z.strictObject({ vendor: Text(200), renderer: Text(300) })),
  /** What canvas, WebGL and audio read-back is varied by: the same for the profile, different between profiles. */
  seed: z.int().check(z.minimum(1), z.maximum(0xffff_ffff)),
  location: IdentityLocation,
});

export type Identity = z.infer<typeof Identity>;
export type IdentityLocation = z.infer<typeof IdentityLocation>;
export type IdentityPreset = (typeof IDENTITY_PRESETS)[number];
