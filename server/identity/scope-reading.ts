/** What one scope of the checked browser (page, frame, dedicated or service worker) reads about it. */

import type { DetectorReading } from './detector-page';
import type { ProbeReading } from './detector-probes';

declare const readDetector: () => Promise<DetectorReading>;
declare const readProbes: () => Promise<ProbeReading>;

/** What one scope (page, frame or worker) reads about the browser it runs in. */
export interface ScopeReading {
  user_agent: string;
  app_version: string;
  platform: string;
  languages: string[];
  cpu_cores: number;
  memory_gb: number | null;
  timezone: string;
  locale: string;
  client_hints: {
    brands: { brand: string; version: string }[];
    full_version_list: { brand: string; version: string }[];
    platform: string;
    platform_version: string;
    architecture: string;
    bitness: string;
    model: string;
    mobile: boolean;
  } | null;
  webgl: { vendor: string; renderer: string } | null;
  /** Whether every read-out the identity replaces still says `[native code]` and has no prototype. */
  looks_native: boolean;
  touch_points: number | null;
  screen: {
    width: number;
    height: number;
    avail_width: number;
    avail_height: number;
    color_depth: number;
    pixel_ratio: number;
  } | null;
  geolocation: { latitude: number; longitude: number } | null;
  /** What detection scripts read (see detector-page.ts); null if its reading failed. */
  detector: DetectorReading | null;
  /** What the third audit's detectors read (see detector-probes.ts); null if its reading failed. */
  probes: ProbeReading | null;
  /** The page's only: registering the check's service worker. */
  service_worker?: { registered: boolean; ms: number; answered: boolean; error: string | null } | null;
}

// Runs in the checked browser: plain JavaScript once serialised, in window and worker scopes alike (with
// `readDetector` beside it).
export async function readScope(): Promise<ScopeReading> {
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  const nav = navigator as Navigator & {
    deviceMemory?: number;
    userAgentData?: {
      brands: { brand: string; version: string }[];
      mobile: boolean;
      platform: string;
      getHighEntropyValues(hints: string[]): Promise<Record<string, unknown>>;
    };
  };
  const data = nav.userAgentData;
  const high = data
    ? await data.getHighEntropyValues([
        'architecture',
        'bitness',
        'model',
        'platformVersion',
        'fullVersionList',
      ])
    : null;
  let webgl: ScopeReading['webgl'] = null;
  try {
    const canvas =
      typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const gl = canvas.getContext('webgl') as WebGLRenderingContext | null;
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    if (gl && info)
      webgl = {
        vendor: String(gl.getParameter(info.UNMASKED_VENDOR_WEBGL)),
        renderer: String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)),
      };
  } catch {
    webgl = null;
  }
  const navigatorPrototype = (scope.Navigator ?? scope.WorkerNavigator)?.prototype;
  const replaced = [
    navigatorPrototype && Object.getOwnPropertyDescriptor(navigatorPrototype, 'deviceMemory')?.get,
    navigatorPrototype && Object.getOwnPropertyDescriptor(navigatorPrototype, 'hardwareConcurrency')?.get,
    scope.WebGLRenderingContext &&
      Object.getOwnPropertyDescriptor(scope.WebGLRenderingContext.prototype, 'getParameter')?.value,
    scope.HTMLCanvasElement &&
      Object.getOwnPropertyDescriptor(scope.HTMLCanvasElement.prototype, 'toDataURL')?.value,
    Function.prototype.toString,
  ].filter((entry): entry is (...args: unknown[]) => unknown => typeof entry === 'function');
  const looksNative = replaced.every(
    (entry) =>
      /^function [\w ]*\(\) \{ \[native code\] \}$/.test(Function.prototype.toString.call(entry)) &&
      !Object.hasOwn(entry, 'prototype'),
  );
  const hasWindow = typeof window === 'object';
  const geolocation = hasWindow
    ? await new Promise<ScopeReading['geolocation']>((resolve) => {
        if (!navigator.geolocation) return resolve(null);
        navigator.geolocation.getCurrentPosition(
          (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
          () => resolve(null),
          { timeout: 2000 },
        );
      })
    : null;
  return {
    user_agent: nav.userAgent,
    app_version: nav.appVersion,
    platform: nav.platform,
    languages: [...nav.languages],
    cpu_cores: nav.hardwareConcurrency,
    memory_gb: nav.deviceMemory ?? null,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    client_hints:
      data && high
        ? {
            brands: data.brands.map(({ brand, version }) => ({ brand, version })),
            full_version_list: high.fullVersionList as { brand: string; version: string }[],
            platform: data.platform,
            platform_version: String(high.platformVersion),
            architecture: String(high.architecture),
            bitness: String(high.bitness),
            model: String(high.model),
            mobile: data.mobile,
          }
        : null,
    webgl,
    looks_native: looksNative,
    touch_points: hasWindow ? navigator.maxTouchPoints : null,
    screen: hasWindow
      ? {
          width: screen.width,
          height: screen.height,
          avail_width: screen.availWidth,
          avail_height: screen.availHeight,
          color_depth: screen.colorDepth,
          pixel_ratio: devicePixelRatio,
        }
      : null,
    geolocation,
    detector: await readDetector().catch(() => null),
    probes: await readProbes().catch(() => null),
  };
}
