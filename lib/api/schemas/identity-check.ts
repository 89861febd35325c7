import { z } from '../zod';

/**
 * `match`: every scope shows what the profile claims; `host`: the profile claims nothing, the host's own shows;
 * `warning`: the host's own shows something sites can tell (see `warnings`), which is not agreement.
 */
export const SurfaceVerdict = z.enum(['match', 'mismatch', 'host', 'warning']);

/**
 * One surface of the identity: what the profile claims and what the page, a frame of another site, a dedicated
 * worker, a service worker and the headers showed (null where that scope has no such thing).
 */
export const IdentitySurface = z.object({
  surface: z.string(),
  claimed: z.unknown(),
  seen: z.object({
    page: z.unknown(),
    frame: z.unknown(),
    worker: z.unknown(),
    service_worker: z.unknown(),
    /** The request headers the browser sent for the surface, where it has any. */
    headers: z.optional(z.unknown()),
  }),
  verdict: SurfaceVerdict,
});

/** Where the proxy's exit IP is, and whether the time zone and languages the browser shows belong there. */
export const ExitLocation = z.object({
  ip: z.string(),
  country: z.string(),
  city: z.nullable(z.string()),
  timezone: z.string(),
  languages: z.array(z.string()),
  timezone_matches: z.boolean(),
  languages_match: z.boolean(),
});

const Shown = (max: number) => z.string().check(z.maxLength(max));

/** What any site sees of the browser, as the check's page read it (each value cut to its bound). */
export const SiteView = z.object({
  /** The proxy's exit; null without a proxy (the service's own address) or when it could not be learned. */
  ip: z.nullable(Shown(64)),
  place: z.nullable(Shown(200)),
  timezone: Shown(64),
  languages: z.array(Shown(35)).check(z.maxLength(10)),
  user_agent: Shown(500),
  screen: z.nullable(z.object({ width: z.number(), height: z.number(), pixel_ratio: z.number() })),
  /** The WebGL renderer; null where the page has no WebGL. */
  gpu: z.nullable(Shown(300)),
});

/** Something sites can tell of the host, though the profile claims nothing there, in a sentence. */
export const IdentityWarning = z.object({ surface: z.string(), detail: z.string() });

/** The answer of POST /v1/profiles/:id/check. */
export const IdentityCheck = z.object({
  profile_id: z.string(),
  session_id: z.string(),
  /** True when the check started a session of its own for it (and stopped it again). */
  temporary_session: z.boolean(),
  engine_version: z.string(),
  /** True when no surface is a mismatch. */
  ok: z.boolean(),
  surfaces: z.array(IdentitySurface),
  /** What sites can tell of the host (a software GPU): neither agreement nor a mismatch. */
  warnings: z.array(IdentityWarning),
  /** Null without a proxy, or when its exit IP could not be learned or placed. */
  exit: z.nullable(ExitLocation),
  site_view: SiteView,
});

export type IdentityCheck = z.infer<typeof IdentityCheck>;
export type IdentitySurface = z.infer<typeof IdentitySurface>;
export type SiteView = z.infer<typeof SiteView>;
export type IdentityWarning = z.infer<typeof IdentityWarning>;
