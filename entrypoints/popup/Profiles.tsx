import { useEffect, useRef, useState } from 'preact/hooks';
import { BulkActions } from '../../components/BulkActions';
import { Check } from '../../components/Check';
import { useItem, useList, useSearchKey, useSettled, useTask } from '../../components/hooks';
import { KeptList } from '../../components/KeptList';
import { LoadMore } from '../../components/LoadMore';
import { useEditing } from '../../components/landing';
import { mayOf } from '../../components/may';
import { Outcome } from '../../components/Outcome';
import { ListState, Problem } from '../../components/Problem';
import { proxyText } from '../../components/profile-proxy';
import { useRovingRows } from '../../components/roving';
import { SearchBox } from '../../components/SearchBox';
import { StatusFilter } from '../../components/StatusFilter';
import { useSaidByBanner } from '../../components/service-down';
import { PROFILE_SORTS, type ProfileSortName } from '../../lib/api/profile-sorts';
import type { Profile } from '../../lib/api/schemas/profiles';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import {
  cachedProfiles,
  cachedProxies,
  cachedTags,
  type ProfileFilter,
  plan,
  waitingStarts,
} from '../../lib/storage';
import { ProfileForm } from './ProfileForm';
import { TYPING_PAUSE_MS } from './ProfilePicker';
import { ProfileRow } from './ProfileRow';
import {
  bulkSelectionOf,
  everyShownPicked,
  heldByOther,
  isPicked,
  NOTHING_PICKED,
  narrows,
  type Picking,
  pickOne,
  pickShown,
  sameFilter,
} from './profile-list-rules';
import { TagChips } from './TagChips';

const SORT_LABELS: Record<ProfileSortName, MessageName> = {
  created: 'sortCreated',
  name: 'sortName',
  last_used: 'sortLastUsed',
  status: 'sortStatus',
};

/**
 * Every profile, a page at a time as the person scrolls: search (name, tags, notes, proxy), tag, status and order
 * run on the service. The search has the focus when the view opens (unless `focus`, a profile a notification
 * named, is shown), and `/` brings it back.
 */
export function Profiles({ focus }: { focus?: string | undefined }) {
  const listing = useItem(cachedProfiles);
  // Saved proxies by name, fetched once if they were never listed.
  const { list: proxies } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }), true);
  const { list: tags } = useList(cachedTags, () => connector.send({ type: 'profiles.tags' }));
  const task = useTask();
  const more = useTask();
  const down = useSaidByBanner();
  const key = useItem(plan);
  const waiting = useItem(waitingStarts);
  const may = mayOf(key);
  const { editing, edit, close, land } = useEditing<Profile>();
  const [picking, setPicking] = useState<Picking>(NOTHING_PICKED);
  /** What the last bulk action did, as sentences. */
  const [bulkOutcome, setBulkOutcome] = useState('');
  /** What the person asks for; null until the list kept from last time says what it was. */
  const [filter, setFilter] = useState<ProfileFilter | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const rows = useRef<HTMLUListElement>(null);
  const roving = useRovingRows(rows);
  useSearchKey(search, !focus);
  const asked = useSettled(filter, TYPING_PAUSE_MS);
  const listed = listing?.filter ?? {};
  const refresh = (wanted?: ProfileFilter) =>
    task.run(() => connector.send({ type: 'profiles.refresh', ...(wanted ? { filter: wanted } : {}) }));

  // The kept list is drawn at once and refreshed, for the filter it was read with.
  useEffect(() => void refresh(), []);
  useEffect(() => {
    if (listing !== undefined) setFilter((current) => current ?? listing?.filter ?? {});
  }, [listing]);
  useEffect(() => {
    if (asked && !sameFilter(asked, listed)) refresh(asked);
  }, [asked]);

  if (editing) return <ProfileForm profile={editing === true ? undefined : editing} onDone={close} />;
  // Under a service that cannot be reached the rows kept from before are shown, said to be stale (KeptList).
  const shown = listing?.data;
  const total = listing?.total;
  const narrowed = narrows(listed);
  const change = (part: ProfileFilter) => {
    setPicking(({ ids }) => ({ ids, allMatching: false }));
    setFilter((current) => ({ ...current, ...part }));
  };
  const proxyOf = (profile: Profile) => proxyText(profile, proxies);
  return (
    <KeptList savedAt={listing?.savedAt}>
      <div class="toolbar">
        <div class="bar">
          <SearchBox
            field={search}
            label={t('searchProfiles')}
            hint={t('searchProfilesHint')}
            value={filter?.q ?? ''}
            onText={(q) => change({ q })}
          />
          {may('createProfile') && (
            <button type="button" class="primary" data-lands="new" disabled={down} onClick={() => edit(true)}>
              {t('newProfile')}
            </button>
          )}
        </div>
        {/* Select all beside the status and order, so that the count and "select all matching" share a line. */}
        <div class="bar">
          {shown?.length ? (
            <Check
              checked={everyShownPicked(picking, shown)}
              onCheck={(checked) => setPicking(pickShown(shown, checked))}
            >
              {t('selectAllShown')}
            </Check>
          ) : null}
          <StatusFilter status={filter?.status} onStatus={(status) => change({ status })} />
          <select
            aria-label={t('sortProfiles')}
            class="narrow"
            value={filter?.sort ?? 'created'}
            onInput={(event) => {
              const sort = PROFILE_SORTS.find((name) => name === event.currentTarget.value);
              change({ sort: sort === 'created' ? undefined : sort });
            }}
          >
            {PROFILE_SORTS.map((name) => (
              <option key={name} value={name}>
                {t(SORT_LABELS[name])}
              </option>
            ))}
          </select>
        </div>
        <TagChips tags={tags ?? []} active={filter?.tag} onPick={(tag) => change({ tag })} />
        {shown?.length && typeof total === 'number' ? (
          <div class="bar">
            <span class="muted grow" role="status" aria-busy={task.busy}>
              {shown.length < total
                ? t('profilesShown', shown.length, total)
                : total === 1
                  ? t('profilesOne')
                  : t('profilesTotal', total)}
            </span>
            {listing?.next_cursor && (
              <button
                type="button"
                aria-pressed={picking.allMatching}
                onClick={() => setPicking({ ids: [], allMatching: true })}
              >
                {t('selectAllMatching', total)}
              </button>
            )}
          </div>
        ) : null}
        <BulkActions
          {...bulkSelectionOf(picking, { shown: shown ?? [], total, filter: listed })}
          shown={shown ?? []}
          onDone={(outcome) => {
            setPicking(NOTHING_PICKED);
            setBulkOutcome(outcome);
          }}
        />
      </div>
      {bulkOutcome && (
        <Outcome text={bulkOutcome} link={{ text: t('followInAutomation'), href: '#/automation' }} />
      )}
      <Problem error={task.error} retry={() => refresh(filter ?? undefined)} />
      <ListState
        list={shown}
        busy={task.busy}
        loading={t('loadingProfiles')}
        empty={narrowed ? t('noProfileMatches') : t('noProfiles')}
        action={
          narrowed || !may('createProfile')
            ? undefined
            : { label: t('createFirstProfile'), run: () => edit(true) }
        }
      />
      <ul class="rows" ref={rows} {...roving}>
        {shown?.map((profile) => (
          <ProfileRow
            key={profile.id}
            profile={profile}
            proxy={proxyOf(profile)}
            focused={profile.id === focus}
            onTag={(tag) => change({ tag })}
            onEdit={() => edit(profile)}
            onDeleted={() => land('')}
            holder={heldByOther(profile, key?.member?.id)}
            waiting={profile.id in (waiting ?? {})}
            may={may}
            selected={isPicked(picking, profile.id)}
            onSelect={(on) => setPicking(pickOne(picking, shown, profile.id, on))}
          />
        ))}
      </ul>
      {listing?.next_cursor && !down && (
        <LoadMore busy={more.busy} onLoad={() => more.run(() => connector.send({ type: 'profiles.more' }))} />
      )}
      <Problem error={more.error} />
    </KeptList>
  );
}
