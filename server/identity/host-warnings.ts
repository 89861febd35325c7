import type { IdentityCheck, IdentitySurface } from '../../lib/api/schemas/identity-check';
import type { ScopeReading } from './scope-reading';

/** A renderer that draws on the CPU: what a site reads as a browser on a machine without a GPU. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|software/i;

/**
 * What the host shows that sites can tell, though the profile claims nothing there: a software GPU. Its surface is
 * a warning, not agreement.
 */
export function withHostWarnings(
  surfaces: IdentitySurface[],
  page: ScopeReading,
): Pick<IdentityCheck, 'surfaces' | 'warnings'> {
  const renderer = page.webgl?.renderer;
  if (!renderer || !SOFTWARE_RENDERER.test(renderer)) return { surfaces, warnings: [] };
  return {
    surfaces: surfaces.map((surface) =>
      surface.surface === 'webgl' && surface.verdict === 'host'
        ? { ...surface, verdict: 'warning' }
        : surface,
    ),
    warnings: [
      {
        surface: 'webgl',
        detail: `This host has no GPU: sites can tell (WebGL draws with ${renderer.slice(0, 120)}).`,
      },
    ],
  };
}
