import { describe, expect, it } from 'vitest';
import { Identity } from '../../../lib/api/schemas/identity';
import { apiError } from '../../support/harness';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({ plan: 'free' });

describe('a profile’s identity in the API', () => {
  it('is generated at creation, whole and Linux, different per profile, and kept as given', async () => {
    const [one, other] = [
      await suite.api.createProfile({ name: 'One' }),
      await suite.api.createProfile({ name: 'Two' }),
    ];
    const identity = Identity.parse(one.identity);
    expect(identity.os.family).toBe('linux');
    expect(identity.client_hints.platform).toBe('Linux');
    expect(identity.navigator_platform).toBe('Linux x86_64');
    // The host's GPU, memory and (empty) platform version: what a page reads whatever is claimed.
    expect(identity.webgl).toBeNull();
    expect(identity.client_hints.platform_version).toBe('');
    expect(identity.location).toEqual({
      timezone: 'auto',
      languages: 'auto',
      locale: 'auto',
      geolocation: 'auto',
    });
    expect(other.identity?.seed).not.toBe(identity.seed);
    expect(await suite.api.getProfile(one.id)).toMatchObject({ identity });

    const given = { ...identity, location: { ...identity.location, timezone: 'Europe/Paris' } };
    expect((await suite.api.createProfile({ name: 'Given', identity: given })).identity).toEqual(given);
  });

  it('is made anew on demand, of a device class if asked, and a clone gets its own unless it keeps it', async () => {
    const profile = await suite.api.createProfile({ name: 'Renewed' });
    const renewed = await suite.api.updateProfile(profile.id, {
      new_identity: true,
      identity_preset: 'large_screen',
    });
    expect(renewed.identity?.seed).not.toBe(profile.identity?.seed);
    expect(renewed.identity?.screen.width).toBeGreaterThanOrEqual(2400);
    expect((await suite.api.updateProfile(profile.id, { name: 'Renamed' })).identity).toEqual(
      renewed.identity,
    );

    const copy = await suite.api.cloneProfile(profile.id);
    expect(copy.identity?.seed).not.toBe(renewed.identity?.seed);
    const twin = await suite.api.cloneProfile(profile.id, { keep_identity: true });
    expect(twin.identity).toEqual(renewed.identity);
  });

  it('refuses an identity the host cannot carry, and a preset without new_identity, with the field at fault', async () => {
    const { identity } = await suite.api.createProfile({ name: 'Valid' });
    const windows = { ...identity, os: { family: 'windows', version: '10.0.0' } };
    const refused = await apiError(suite.api.createProfile({ name: 'Windows', identity: windows as never }));
    expect(refused).toMatchObject({ status: 422 });
    expect(refused.fieldErrors.map((error) => error.path)).toContain('identity.os.family');

    // A user agent or platform that Linux client hints would contradict, given explicitly.
    const windowsAgent =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const explicit = await apiError(
      suite.api.createProfile({ name: 'Windows agent', fingerprint: { user_agent: windowsAgent } }),
    );
    expect(explicit).toMatchObject({ status: 422 });
    expect(explicit.fieldErrors.map((error) => error.path)).toEqual(['fingerprint.user_agent']);
    const updated = await apiError(
      suite.api
        .createProfile({ name: 'Later' })
        .then((p) => suite.api.updateProfile(p.id, { fingerprint: { user_agent: windowsAgent } })),
    );
    expect(updated.fieldErrors.map((error) => error.path)).toEqual(['fingerprint.user_agent']);
    const contradicting = {
      ...identity,
      user_agent: windowsAgent,
      navigator_platform: 'Win32',
      client_hints: { ...identity?.client_hints, platform: 'Windows' },
    };
    const inIdentity = await apiError(
      suite.api.createProfile({ name: 'Win32', identity: contradicting as never }),
    );
    expect(inIdentity.fieldErrors.map((error) => error.path).sort()).toEqual([
      'identity.client_hints.platform',
      'identity.navigator_platform',
      'identity.user_agent',
    ]);
    const linuxAgent = identity?.user_agent as string;
    expect(
      (await suite.api.createProfile({ name: 'Linux agent', fingerprint: { user_agent: linuxAgent } }))
        .fingerprint,
    ).toMatchObject({ user_agent: linuxAgent });

    // A platform version this Chromium never reports, and a window ending past the screen's work area.
    const kernel = { ...identity, client_hints: { ...identity?.client_hints, platform_version: '6.14.0' } };
    const versioned = await apiError(suite.api.createProfile({ name: 'Kernel', identity: kernel as never }));
    expect(versioned).toMatchObject({ status: 422 });
    expect(versioned.fieldErrors.map((error) => error.path)).toEqual([
      'identity.client_hints.platform_version',
    ]);
    const screen = identity?.screen as Identity['screen'];
    const wide = { ...identity, window: { width: screen.avail_width + 10, height: screen.avail_height + 1 } };
    const patched = await apiError(
      suite.api
        .createProfile({ name: 'Wide' })
        .then((p) => suite.api.updateProfile(p.id, { identity: wide as never })),
    );
    expect(patched).toMatchObject({ status: 422 });
    expect(patched.fieldErrors.map((error) => error.path).sort()).toEqual([
      'identity.window.height',
      'identity.window.width',
    ]);
    expect(patched.fieldErrors.map((error) => error.message)).toContain(
      `must be at most the screen's avail_width (${screen.avail_width})`,
    );
    const fitting = { ...identity, window: { width: screen.avail_width, height: screen.avail_height } };
    expect((await suite.api.createProfile({ name: 'Fits', identity: fitting as never })).identity).toEqual(
      fitting,
    );

    const presetAlone = await apiError(
      suite.api
        .createProfile({ name: 'P' })
        .then((p) => suite.api.updateProfile(p.id, { identity_preset: 'laptop' })),
    );
    expect(presetAlone).toMatchObject({ status: 422 });
    expect(presetAlone.fieldErrors.map((error) => error.path)).toContain('identity_preset');
  });
});
