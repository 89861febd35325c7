import {
  type Fingerprint,
  FingerprintGenerator,
  type FingerprintGeneratorOptions,
} from 'fingerprint-generator';
import type { Identity, IdentityPreset } from '../../lib/api/schemas/identity';
import { hostCores, hostMemoryGb } from './host';
import { drawingWith, noiseSeed, type RandomSource } from './random-source';

/** Screen widths (CSS pixels) of each device class; the generator picks the rest of the device to match. */
const PRESET_SCREENS: Record<IdentityPreset, { minWidth?: number; maxWidth?: number }> = {
  laptop: { maxWidth: 1599 },
  desktop: { minWidth: 1600, maxWidth: 2399 },
  large_screen: { minWidth: 2400 },
};

let generator: FingerprintGenerator | null = null;

/**
 * A new identity: a Linux desktop Chrome as real traffic shows them (Apify's Bayesian network of observed
 * fingerprints), so that screen, cores, memory and GPU come as sets seen together, never as independent dice.
 * Location is `auto`: it follows the proxy's exit IP, or the host without a proxy. Tests pass a seeded `random`.
 */
export function generateIdentity(preset?: IdentityPreset, random?: RandomSource): Identity {
  // Loading the network takes about 250 ms: once per process, on first use.
  generator ??= new FingerprintGenerator({
    browsers: [{ name: 'chrome' }],
    operatingSystems: ['linux'],
    devices: ['desktop'],
    locales: ['en-US'],
  });
  const network = generator;
  const options: Partial<FingerprintGeneratorOptions> = preset ? { screen: PRESET_SCREENS[preset] } : {};
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const drawn = drawingWith(random, () => network.getFingerprint(options)).fingerprint;
    const identity = identityOf(drawn, random);
    if (isPlausible(identity) && !SOFTWARE_RENDERER.test(drawn.videoCard.renderer)) return identity;
  }
  throw new Error(`no plausible identity in ${MAX_ATTEMPTS} generated fingerprints`);
}

/** Enough that a rejected draw is never the end: about one in ten is rejected. */
const MAX_ATTEMPTS = 50;

/** Records of other automation name a software renderer. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|software/i;

/**
 * The observed data holds some records no person's browser shows: other automation (a software renderer, an
 * 800×600 screen, empty client hints), portrait desktop screens, odd core counts. Such a draw is redrawn.
 */
function isPlausible(identity: Identity): boolean {
  const { screen, hardware, client_hints } = identity;
  return (
    client_hints.platform === 'Linux' &&
    identity.navigator_platform === 'Linux x86_64' &&
    screen.width > screen.height &&
    screen.width >= 1024 &&
    screen.avail_width <= screen.width &&
    screen.avail_height <= screen.height &&
    (hardware.cpu_cores === 1 || hardware.cpu_cores % 2 === 0)
  );
}

function identityOf(fingerprint: Fingerprint, random?: RandomSource): Identity {
  const { navigator, screen } = fingerprint;
  const hints = navigator.userAgentData;
  return {
    // Chromium on Linux tells no platform version (the data has kernel versions such as 6.14.0).
    os: { family: 'linux', version: '' },
    user_agent: navigator.userAgent,
    client_hints: {
      platform: hints.platform,
      platform_version: '',
      architecture: hints.architecture ?? 'x86',
      bitness: hints.bitness ?? '64',
      model: hints.model ?? '',
      mobile: hints.mobile,
    },
    navigator_platform: navigator.platform,
    hardware: {
      // No more than the host's: a page measures them (see docs/identity.md).
      cpu_cores: Math.min(navigator.hardwareConcurrency, hostCores()),
      // The host's: the heap limit a page reads follows from it (see docs/identity.md).
      memory_gb: hostMemoryGb(),
      touch_points: navigator.maxTouchPoints ?? 0,
    },
    screen: {
      width: screen.width,
      height: screen.height,
      avail_width: screen.availWidth,
      avail_height: screen.availHeight,
      color_depth: screen.colorDepth,
      pixel_ratio: screen.devicePixelRatio,
    },
    // A window never larger than the space the screen leaves it.
    window: {
      width: Math.min(screen.outerWidth || screen.availWidth, screen.availWidth),
      height: Math.min(screen.outerHeight || screen.availHeight, screen.availHeight),
    },
    // The host's GPU: its limits and extensions are what a page reads, whatever name is claimed.
    webgl: null,
    seed: noiseSeed(random),
    location: { timezone: 'auto', languages: 'auto', locale: 'auto', geolocation: 'auto' },
  };
}
