import { useState } from 'preact/hooks';
import { IDENTITY_PRESETS, type IdentityPreset } from '../lib/api/schemas/identity';
import type { Profile } from '../lib/api/schemas/profiles';
import { type MessageName, t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { useTask } from './hooks';
import { checkText, deviceText, locationText } from './identity-text';
import { Problem } from './Problem';

const PRESET_NAMES: Record<IdentityPreset, MessageName> = {
  laptop: 'identityLaptop',
  desktop: 'identityDesktop',
  large_screen: 'identityLargeScreen',
};

/** A saved profile's identity in words, a new one on demand (of a device class), and the service's check of it. */
export function IdentitySummary({ profile }: { profile: Profile }) {
  const [identity, setIdentity] = useState(profile.identity);
  const [preset, setPreset] = useState<IdentityPreset | ''>('');
  const [outcome, setOutcome] = useState<string[]>([]);
  const renewing = useTask();
  const checking = useTask();
  const proxied = profile.proxy !== null;

  async function renew() {
    const changes = { new_identity: true, ...(preset ? { identity_preset: preset } : {}) };
    const reply = await renewing.run(() =>
      connector.send({ type: 'profile.update', profileId: profile.id, changes }),
    );
    if (reply.ok) {
      setIdentity(reply.value.identity);
      setOutcome([t('identityRenewed')]);
    }
  }

  async function check() {
    setOutcome([]);
    const reply = await checking.run(() =>
      connector.send({ type: 'profile.checkIdentity', profileId: profile.id }),
    );
    if (reply.ok) setOutcome(checkText(reply.value));
  }

  return (
    <section class="stack" aria-label={t('identity')}>
      {identity ? (
        <p>
          {deviceText(identity)}
          <br />
          {locationText(identity, proxied)}
        </p>
      ) : (
        <p>{t('identityPending')}</p>
      )}
      <div class="bar">
        <select
          aria-label={t('identityDeviceClass')}
          value={preset}
          onInput={(event) => setPreset(event.currentTarget.value as IdentityPreset | '')}
        >
          <option value="">{t('identityAnyDevice')}</option>
          {IDENTITY_PRESETS.map((name) => (
            <option key={name} value={name}>
              {t(PRESET_NAMES[name])}
            </option>
          ))}
        </select>
        <button type="button" aria-disabled={renewing.busy} onClick={() => renewing.busy || renew()}>
          {t('newIdentity')}
        </button>
        <button type="button" aria-disabled={checking.busy} onClick={() => checking.busy || check()}>
          {t(checking.busy ? 'checkingIdentity' : 'checkIdentity')}
        </button>
      </div>
      {outcome.length > 0 && (
        <ul role="status">
          {outcome.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <Problem error={renewing.error ?? checking.error} />
    </section>
  );
}
