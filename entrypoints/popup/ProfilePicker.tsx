import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { useList, useSettled } from '../../components/hooks';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProfiles } from '../../lib/storage';

/** How long typing must pause before the search goes to the service. */
export const TYPING_PAUSE_MS = 300;

interface ProfilePickerProps {
  value: string[];
  onPick: (profileIds: string[]) => void;
}

/** The profiles to run on (one or several), found by the service's search as in the Profiles view. */
export function ProfilePicker({ value, onPick }: ProfilePickerProps) {
  const { list: profiles } = useList(
    cachedProfiles,
    () => connector.send({ type: 'profiles.refresh' }),
    true,
  );
  const [typed, setTyped] = useState<string | null>(null);
  const asked = useSettled(typed, TYPING_PAUSE_MS);
  useEffect(() => {
    if (asked === null) return;
    cachedProfiles.getValue().then((listed) => {
      const filter = listed?.filter ?? {};
      if ((filter.q ?? '').trim() !== asked.trim())
        connector.send({ type: 'profiles.refresh', filter: { ...filter, q: asked } });
    });
  }, [asked]);
  return (
    <div class="stack">
      <Field
        label={t('findProfile')}
        type="search"
        value={typed ?? ''}
        onInput={(e) => setTyped(e.currentTarget.value)}
      />
      <Field
        as="select"
        label={t('profiles')}
        multiple
        size={4}
        error={profiles?.length === 0 ? t('noProfilesToRun') : undefined}
        hint={t('pickSeveral')}
        onInput={(event) =>
          onPick(
            [...(event.currentTarget as unknown as HTMLSelectElement).selectedOptions].map((o) => o.value),
          )
        }
      >
        {profiles?.map((profile: Profile) => (
          <option key={profile.id} value={profile.id} selected={value.includes(profile.id)}>
            {profile.name}
          </option>
        ))}
      </Field>
    </div>
  );
}
