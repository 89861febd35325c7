import { z } from '../zod';

/** `match`: every scope shows what the profile claims; `host`: the profile claims nothing, the host's own shows. */
export const SurfaceVerdict = z.enum(['match', 'mismatch', 'host']);

/** One surface of the identity: what the profile claims and what the page, its frame, a worker and the headers showed. */
export const IdentitySurface = z.object({
  surface: z.string(),
  claimed: z.unknown(),
  seen: z.object({
    page: z.unknown(),
    frame: z.unknown(),
    worker: z.unknown(),
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
  /** Null without a proxy, or when its exit IP could not be learned or placed. */
  exit: z.nullable(ExitLocation),
});

export type IdentityCheck = z.infer<typeof IdentityCheck>;
export type IdentitySurface = z.infer<typeof IdentitySurface>;
