import { describe, expect, it } from 'vitest';
import { Identity } from '../../../lib/api/schemas/identity';
import { generateIdentity } from '../../../server/identity/generate';
import { hostCores, hostMemoryGb } from '../../../server/identity/host';
import { launchFingerprint, presentIdentity } from '../../../server/identity/presented';

const GIB = 2 ** 30;

describe('generated identities', () => {
  it('claim only what this host shows: its GPU and memory, no more cores, no platform version, a window inside the work area', () => {
    const host = hostMemoryGb();
    const identities = Array.from({ length: 1000 }, () => Identity.parse(generateIdentity()));
    for (const identity of identities) {
      expect(identity.webgl).toBeNull();
      expect(identity.hardware.memory_gb).toBe(host);
      expect(identity.hardware.cpu_cores).toBeLessThanOrEqual(hostCores());
      expect(identity.client_hints.platform_version).toBe('');
      expect(identity.os.version).toBe('');
      expect(identity.navigator_platform).toBe('Linux x86_64');
      expect(identity.window.width).toBeLessThanOrEqual(identity.screen.avail_width);
      expect(identity.window.height).toBeLessThanOrEqual(identity.screen.avail_height);
    }
    // Still distinct devices: screens vary (and each has its own noise seed).
    expect(new Set(identities.map((identity) => identity.screen.width)).size).toBeGreaterThan(5);
  }, 60_000);

  it('take the memory Chromium shows: the nearest power of two, within its bounds', () => {
    expect(hostMemoryGb(23 * GIB)).toBe(16);
    expect(hostMemoryGb(25 * GIB)).toBe(32);
    expect(hostMemoryGb(7.6 * GIB)).toBe(8);
    expect(hostMemoryGb(5 * GIB)).toBe(4);
    expect(hostMemoryGb(128 * GIB)).toBe(32);
    expect(hostMemoryGb(0.1 * GIB)).toBe(0.25);
  });

  it('stored before the API refused them, a platform version and a window past the work area are not presented', () => {
    const identity = generateIdentity();
    const { avail_width, avail_height } = identity.screen;
    const stored = {
      ...identity,
      client_hints: { ...identity.client_hints, platform_version: '6.14.0' },
      window: { width: avail_width + 10, height: avail_height + 10 },
    };
    const presented = presentIdentity(stored, {}, null);
    expect(presented.identity.client_hints.platform_version).toBe('');
    expect(presented.window).toEqual({ width: avail_width, height: avail_height });
    expect(launchFingerprint(presented).screen).toEqual({ width: avail_width, height: avail_height });
    expect(presentIdentity(identity, {}, null).identity).toEqual(identity);
  });
});
