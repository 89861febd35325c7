import type { CdpPipe } from '../browser/cdp-pipe';

/** The Chromium that runs a profile, as its pages see it. */
export interface Engine {
  /** e.g. 156.0.8078.108 */
  fullVersion: string;
  major: string;
  brands: Brand[];
  fullVersionList: Brand[];
}

export interface Brand {
  brand: string;
  version: string;
}

/** The engine's version, from the browser itself (`Browser.getVersion`), and the brands Chromium derives from it. */
export async function readEngine(pipe: CdpPipe): Promise<Engine> {
  const { product } = await pipe.send('Browser.getVersion');
  const fullVersion = /\/(\d+\.\d+\.\d+\.\d+)$/.exec(String(product))?.[1];
  if (!fullVersion) throw new Error(`the browser named no version it runs (${String(product)})`);
  return engineOf(fullVersion);
}

const GREASE_CHARACTERS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
const GREASE_VERSIONS = ['8', '99', '24'];

/**
 * Chromium's client-hint brands for its version: "Chromium" and a "GREASE" brand whose spelling, version and
 * place Chromium derives from the major version (GenerateBrandVersionList in its user_agent_utils.cc), exactly as
 * the engine sends them when nothing overrides them.
 */
export function engineOf(fullVersion: string): Engine {
  const major = fullVersion.split('.')[0] as string;
  const seed = Number(major);
  const grease = {
    brand: `Not${GREASE_CHARACTERS[seed % 11]}A${GREASE_CHARACTERS[(seed + 1) % 11]}Brand`,
    version: GREASE_VERSIONS[seed % 3] as string,
  };
  const order = <T>(greased: T, chromium: T): T[] =>
    seed % 2 === 0 ? [greased, chromium] : [chromium, greased];
  return {
    fullVersion,
    major,
    brands: order(grease, { brand: 'Chromium', version: major }),
    fullVersionList: order(
      { brand: grease.brand, version: `${grease.version}.0.0.0` },
      { brand: 'Chromium', version: fullVersion },
    ),
  };
}

/** The user agent with the engine's version where the stored one names another Chrome. */
export function engineUserAgent(userAgent: string, engine: Engine): string {
  return userAgent.replace(/\b(Headless)?Chrome\/[\d.]+/, `Chrome/${engine.major}.0.0.0`);
}
