import { useEffect, useId, useState } from 'preact/hooks';
import { Check } from '../../components/Check';
import { useItem, useSettled, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { SearchField } from '../../components/SearchField';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProfiles } from '../../lib/storage';

/** How long typing must pause before the search goes to the service. */
export const TYPING_PAUSE_MS = 300;

/** Picks named one by one under the list (those out of the search's sight included); more are counted. */
const NAMED = 3;

/** A profile picked, by id and the name it had when picked (it may be out of the list the search shows). */
export interface Picked {
  id: string;
  name: string;
}

interface Found {
  data: Profile[];
  next_cursor: string | null;
}

interface ProfilePickerProps {
  value: Picked[];
  onPick: (picked: Picked[]) => void;
}

/**
 * The profiles a script runs on: its own search on the service (the Profiles view's filter is not its
 * business), a box to tick per profile, every match reachable a page at a time, and nothing picked by itself.
 * An empty search is answered from the Profiles view's list when that list is the unfiltered one.
 */
/** Every profile shown ticked (added after those picked already), or unticked. */
export function pickAllShown(value: Picked[], shown: Profile[], on: boolean): Picked[] {
  const others = value.filter(({ id }) => !shown.some((profile) => profile.id === id));
  return on ? [...others, ...shown.map(({ id, name }) => ({ id, name }))] : others;
}

export function ProfilePicker({ value, onPick }: ProfilePickerProps) {
  const cached = useItem(cachedProfiles);
  const [typed, setTyped] = useState('');
  const asked = useSettled(typed, TYPING_PAUSE_MS).trim();
  const [found, setFound] = useState<Found | null>(null);
  const task = useTask();
  const more = useTask();
  const id = useId();
  const unfiltered = cached && !(cached.filter?.q?.trim() || cached.filter?.tag || cached.filter?.status);
  const fromCache =
    !asked && unfiltered ? { data: cached.data, next_cursor: cached.next_cursor ?? null } : null;
  const known = cached !== undefined;
  useEffect(() => {
    setFound(null);
    if (!known || fromCache) return;
    let current = true;
    task
      .run(() => connector.send({ type: 'profiles.search', q: asked }))
      .then((reply) => current && reply.ok && setFound(reply.value));
    return () => {
      current = false;
    };
  }, [asked, known, Boolean(fromCache)]);
  const shown = found ?? fromCache;
  const pickedIds = new Set(value.map(({ id }) => id));
  const toggle = ({ id, name }: Profile, on: boolean) =>
    onPick(on ? [...value, { id, name }] : value.filter((picked) => picked.id !== id));

  async function readMore(cursor: string) {
    const reply = await more.run(() => connector.send({ type: 'profiles.search', q: asked, cursor }));
    if (reply.ok)
      setFound({ data: [...(shown?.data ?? []), ...reply.value.data], next_cursor: reply.value.next_cursor });
  }

  return (
    <fieldset class="picker stack" aria-describedby={`${id}h`}>
      <legend>{t('profilesToRunOn')}</legend>
      <SearchField label={t('findProfile')} hint={t('findProfile')} value={typed} onInput={setTyped} />
      <Problem error={task.error} />
      {shown && shown.data.length === 0 && !task.busy && (
        <p class="muted">{asked ? t('noSearchMatches', asked) : t('noProfilesToRun')}</p>
      )}
      {shown && shown.data.length > 0 && (
        <Check
          checked={shown.data.every(({ id }) => pickedIds.has(id))}
          onCheck={(checked) => onPick(pickAllShown(value, shown.data, checked))}
        >
          {t('pickAllShown', shown.data.length)}
        </Check>
      )}
      {shown && shown.data.length > 0 && (
        <ul class="pick-list" aria-busy={task.busy}>
          {shown.data.map((profile) => (
            <li key={profile.id}>
              <Check checked={pickedIds.has(profile.id)} onCheck={(checked) => toggle(profile, checked)}>
                {profile.name}
              </Check>
            </li>
          ))}
          {shown.next_cursor && (
            <li>
              <button
                type="button"
                aria-busy={more.busy}
                onClick={() => shown.next_cursor && !more.busy && readMore(shown.next_cursor)}
              >
                {more.busy ? t('loadingMore') : t('loadMore')}
              </button>
            </li>
          )}
        </ul>
      )}
      <Problem error={more.error} />
      <div class="bar">
        <p id={`${id}h`} class="note grow">
          {value.length === 0
            ? t('pickedNone')
            : value.length <= NAMED
              ? t('pickedNamed', value.length, value.map(({ name }) => name).join(', '))
              : t('pickedCount', value.length)}{' '}
          {t('pickSeveral')}
        </p>
        {value.length > 0 && (
          <button type="button" onClick={() => onPick([])}>
            {t('clearPicks')}
          </button>
        )}
      </div>
    </fieldset>
  );
}
