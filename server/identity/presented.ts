import type { Fingerprint } from '../../lib/api/inputs/profiles';
import type { Identity } from '../../lib/api/schemas/identity';
import type { PlaceOfIp } from './geoip';

/** A profile's identity as one start presents it: `auto` resolved, explicit fingerprint settings applied. */
export interface PresentedIdentity {
  identity: Identity;
  /** The profile's explicit user agent, presented as it is; else the identity's with the engine's version. */
  explicitUserAgent: string | null;
  languages: string[] | null;
  locale: string | null;
  timezone: string | null;
  geolocation: { latitude: number; longitude: number; accuracy: number } | null;
  screen: Identity['screen'];
  window: Identity['window'];
  /** Where the proxy's exit IP is, when it was learned for this start. */
  exit: PlaceOfIp | null;
}

/** Without a proxy, or when its exit cannot be placed, `auto` leaves the host's own (null). */
const CITY_ACCURACY_M = 5_000;

/**
 * What a start presents: explicit settings (the profile's `fingerprint`, then values written into the identity)
 * win; `auto` follows the proxy's exit (`exit`), else stays the host's.
 */
export function presentIdentity(
  stored: Identity,
  fingerprint: Fingerprint,
  exit: PlaceOfIp | null,
): PresentedIdentity {
  const identity = carried(stored);
  const { location } = identity;
  const languages = fingerprint.language
    ? [fingerprint.language]
    : location.languages === 'auto'
      ? (exit?.languages ?? null)
      : location.languages;
  const geolocation =
    location.geolocation === 'auto'
      ? exit && { latitude: exit.latitude, longitude: exit.longitude, accuracy: CITY_ACCURACY_M }
      : location.geolocation;
  const screen = fingerprint.screen
    ? {
        ...identity.screen,
        width: fingerprint.screen.width,
        height: fingerprint.screen.height,
        avail_width: fingerprint.screen.width,
        avail_height: fingerprint.screen.height,
      }
    : identity.screen;
  return {
    identity,
    explicitUserAgent: fingerprint.user_agent ?? null,
    languages,
    // Intl follows the first language the browser asks for (a page compares them); without one it stays the
    // identity's, else the host's.
    locale: languages?.[0] ?? (location.locale === 'auto' ? null : location.locale),
    timezone:
      fingerprint.timezone ?? (location.timezone === 'auto' ? (exit?.timezone ?? null) : location.timezone),
    geolocation,
    screen,
    window: fingerprint.screen ?? identity.window,
    exit,
  };
}

/**
 * What the API refuses today, corrected in identities stored before: a platform version (Chromium on Linux reports
 * none) and a window ending past the screen's work area.
 */
function carried(identity: Identity): Identity {
  const { client_hints, screen, window } = identity;
  if (
    client_hints.platform_version === '' &&
    window.width <= screen.avail_width &&
    window.height <= screen.avail_height
  )
    return identity;
  return {
    ...identity,
    client_hints: { ...client_hints, platform_version: '' },
    window: {
      width: Math.min(window.width, screen.avail_width),
      height: Math.min(window.height, screen.avail_height),
    },
  };
}

/** The launch settings the browser's command line carries for this identity. */
export function launchFingerprint(presented: PresentedIdentity): Fingerprint {
  const { languages, timezone, explicitUserAgent } = presented;
  return {
    ...(explicitUserAgent ? { user_agent: explicitUserAgent } : {}),
    ...(languages ? { language: languages[0] } : {}),
    ...(timezone ? { timezone } : {}),
    screen: presented.window,
  };
}
