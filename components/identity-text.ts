import type { Identity } from '../lib/api/schemas/identity';
import type { IdentityCheck } from '../lib/api/schemas/identity-check';
import { t } from '../lib/i18n';

const OS_NAMES: Record<Identity['os']['family'], string> = { linux: 'Linux' };

/** The GPU as a person names it: "NVIDIA GeForce RTX 3090" out of "ANGLE (NVIDIA Corporation, NVIDIA GeForce RTX 3090/PCIe/SSE2, …)". */
function gpuName(renderer: string): string {
  const parts = /^ANGLE \(([^,]+), ([^,]+)/.exec(renderer);
  return (parts?.[2] ?? renderer).replace(/\/.*$/, '').replace(/ \(.*$/, '');
}

/** A screen as 1920×1080, with its pixel ratio when not 1: 1536×864 ×1.25. */
const screenText = (screen: { width: number; height: number; pixel_ratio: number }) =>
  `${screen.width}×${screen.height}${screen.pixel_ratio === 1 ? '' : ` ×${screen.pixel_ratio}`}`;

/** The device in one line: OS, screen, cores, memory, GPU. */
export function deviceText(identity: Identity): string {
  const { screen, hardware } = identity;
  return t(
    'identityDevice',
    OS_NAMES[identity.os.family],
    screenText(screen),
    hardware.cpu_cores,
    hardware.memory_gb,
    identity.webgl ? gpuName(identity.webgl.renderer) : t('identityHost'),
  );
}

/** Time zone and languages: explicit ones, else the proxy's (or the service's, without a proxy). */
export function locationText(identity: Identity, proxied: boolean): string {
  const follows = t(proxied ? 'identityFollowsProxy' : 'identityHost');
  const { timezone, languages } = identity.location;
  return t(
    'identityLocation',
    timezone === 'auto' ? follows : timezone,
    languages === 'auto' ? follows : languages.join(', '),
  );
}

/**
 * The check in sentences: how many surfaces agree, each one that does not, what sites can tell of the host (apart
 * from agreement), what a site sees, and the proxy's exit.
 */
export function checkText(check: IdentityCheck): string[] {
  const compared = check.surfaces.filter(
    (surface) => surface.verdict === 'match' || surface.verdict === 'mismatch',
  );
  const differing = compared.filter((surface) => surface.verdict === 'mismatch');
  const lines = [t('identityAgrees', compared.length - differing.length, compared.length)];
  for (const surface of differing)
    lines.push(
      t(
        'identitySurfaceDiffers',
        surface.surface,
        JSON.stringify(surface.claimed),
        JSON.stringify(surface.seen),
      ),
    );
  for (const warning of check.warnings) lines.push(t('identityWarning', warning.detail));
  const view = check.site_view;
  const ip = view.ip
    ? [view.ip, view.place && `(${view.place})`].filter(Boolean).join(' ')
    : t('identityServiceIp');
  lines.push(
    t('identitySiteSees', ip, view.timezone, view.languages.join(', ')),
    t('identitySiteDevice', view.screen ? screenText(view.screen) : '–', view.gpu ?? '–', view.user_agent),
  );
  const { exit } = check;
  if (exit)
    lines.push(
      t(
        'identityExit',
        t(exit.timezone_matches ? 'identityMatches' : 'identityDiffers'),
        t(exit.languages_match ? 'identityMatches' : 'identityDiffers'),
      ),
    );
  return lines;
}
