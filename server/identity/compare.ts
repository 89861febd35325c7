import { isDeepStrictEqual } from 'node:util';
import type { IdentityCheck, IdentitySurface } from '../../lib/api/schemas/identity-check';
import { detectorRules } from './compare-detector';
import { type Brand, type Engine, engineUserAgent } from './engine';
import type { PresentedIdentity } from './presented';
import type { CheckPageVisit } from './read-check-page';
import type { ScopeReading } from './scope-reading';
import { PAGE_ONLY, SCOPES, type Scope, type SurfaceRule } from './surface-rule';

const quoted = (text: string) => `"${text}"`;
const brandList = (brands: Brand[]) =>
  brands.map(({ brand, version }) => `"${brand}";v="${version}"`).join(', ');

/** Each surface the identity sets, what the profile claims, and how a scope (and the headers) show it. */
function surfaceRules(presented: PresentedIdentity, engine: Engine): SurfaceRule[] {
  const { identity } = presented;
  const hints = identity.client_hints;
  const userAgent = presented.explicitUserAgent ?? engineUserAgent(identity.user_agent, engine);
  const hint = (name: keyof NonNullable<ScopeReading['client_hints']>) => (reading: ScopeReading) =>
    reading.client_hints?.[name] ?? null;
  return [
    {
      surface: 'user_agent',
      claimed: userAgent,
      read: (reading) => reading.user_agent,
      header: { path: '/', name: 'user-agent', claimed: userAgent },
    },
    {
      surface: 'navigator_platform',
      claimed: identity.navigator_platform,
      read: (reading) => reading.platform,
    },
    {
      surface: 'client_hints.brands',
      claimed: engine.brands,
      read: hint('brands'),
      header: { path: '/', name: 'sec-ch-ua', claimed: brandList(engine.brands) },
    },
    {
      surface: 'client_hints.full_version_list',
      claimed: engine.fullVersionList,
      read: hint('full_version_list'),
      header: {
        path: '/page-fetch',
        name: 'sec-ch-ua-full-version-list',
        claimed: brandList(engine.fullVersionList),
      },
    },
    {
      surface: 'client_hints.platform',
      claimed: hints.platform,
      read: hint('platform'),
      header: { path: '/', name: 'sec-ch-ua-platform', claimed: quoted(hints.platform) },
    },
    {
      surface: 'client_hints.platform_version',
      claimed: hints.platform_version,
      read: hint('platform_version'),
      header: {
        path: '/page-fetch',
        name: 'sec-ch-ua-platform-version',
        claimed: quoted(hints.platform_version),
      },
    },
    {
      surface: 'client_hints.architecture',
      claimed: hints.architecture,
      read: hint('architecture'),
      header: { path: '/page-fetch', name: 'sec-ch-ua-arch', claimed: quoted(hints.architecture) },
    },
    {
      surface: 'client_hints.bitness',
      claimed: hints.bitness,
      read: hint('bitness'),
      header: { path: '/page-fetch', name: 'sec-ch-ua-bitness', claimed: quoted(hints.bitness) },
    },
    { surface: 'client_hints.model', claimed: hints.model, read: hint('model') },
    {
      surface: 'client_hints.mobile',
      claimed: hints.mobile,
      read: hint('mobile'),
      header: { path: '/', name: 'sec-ch-ua-mobile', claimed: hints.mobile ? '?1' : '?0' },
    },
    { surface: 'languages', claimed: presented.languages, read: (reading) => reading.languages },
    { surface: 'timezone', claimed: presented.timezone, read: (reading) => reading.timezone },
    { surface: 'locale', claimed: presented.locale, read: (reading) => reading.locale },
    { surface: 'cpu_cores', claimed: identity.hardware.cpu_cores, read: (reading) => reading.cpu_cores },
    { surface: 'memory_gb', claimed: identity.hardware.memory_gb, read: (reading) => reading.memory_gb },
    { surface: 'webgl', claimed: identity.webgl, read: (reading) => reading.webgl },
    { surface: 'script_hidden', claimed: true, read: (reading) => reading.looks_native },
    {
      surface: 'touch_points',
      claimed: identity.hardware.touch_points,
      read: (reading) => reading.touch_points,
      scopes: PAGE_ONLY,
    },
    { surface: 'screen', claimed: presented.screen, read: (reading) => reading.screen, scopes: PAGE_ONLY },
    {
      surface: 'geolocation',
      claimed: presented.geolocation && {
        latitude: presented.geolocation.latitude,
        longitude: presented.geolocation.longitude,
      },
      read: (reading) => reading.geolocation,
      scopes: PAGE_ONLY,
    },
    ...detectorRules(presented),
  ];
}

/**
 * Each surface with its verdict: what the page shows counts always; another scope's counts where it read the
 * surface (a frame that never loaded, a worker's window: null, nothing).
 */
export function compareSurfaces(
  presented: PresentedIdentity,
  engine: Engine,
  visit: CheckPageVisit,
): IdentitySurface[] {
  return surfaceRules(presented, engine).map((rule) => {
    const scopes = rule.scopes ?? SCOPES;
    const seen: Record<Scope, unknown> = { page: null, frame: null, worker: null, service_worker: null };
    for (const scope of scopes) {
      const reading = visit.readings[scope];
      seen[scope] = reading ? rule.read(reading) : null;
    }
    const shown = SCOPES.filter((scope) => scope === 'page' || seen[scope] !== null).map(
      (scope) => seen[scope],
    );
    const headers = rule.header
      ? (visit.headers.get(rule.header.path)?.[rule.header.name] ?? null)
      : undefined;
    const headerAgrees = !rule.header || isDeepStrictEqual(headers, rule.header.claimed);
    const verdict: IdentitySurface['verdict'] =
      rule.claimed === null
        ? 'host'
        : shown.every((value) => (rule.agrees ?? agreesExactly(rule.claimed))(value)) && headerAgrees
          ? 'match'
          : 'mismatch';
    return {
      surface: rule.surface,
      claimed: rule.claimed,
      seen: { ...seen, ...(rule.header ? { headers } : {}) },
      verdict,
    };
  });
}

const agreesExactly = (claimed: unknown) => (seen: unknown) => isDeepStrictEqual(seen, claimed);

/** Whether the browser's time zone and first language are those of the proxy's exit. */
export function exitLocation(presented: PresentedIdentity, page: ScopeReading): IdentityCheck['exit'] {
  const { exit } = presented;
  if (!exit) return null;
  return {
    ip: exit.ip,
    country: exit.country,
    city: exit.city,
    timezone: exit.timezone,
    languages: exit.languages,
    timezone_matches: page.timezone === exit.timezone,
    languages_match: page.languages[0] === exit.languages[0],
  };
}
