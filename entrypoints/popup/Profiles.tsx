import { useEffect, useRef, useState } from 'preact/hooks';
import { useList, useTask } from '../../components/hooks';
import { ListState, Problem } from '../../components/Problem';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProfiles, cachedProxies } from '../../lib/storage';
import { ProfileForm } from './ProfileForm';

/** The profiles: search, create, start and stop a session, delete. `focus` is a profile a notification named. */
export function Profiles({ focus }: { focus?: string | undefined }) {
  const { list, task, refresh } = useList(cachedProfiles, () => connector.send({ type: 'profiles.refresh' }));
  // Saved proxies by name, fetched once if they were never listed.
  const { list: proxies } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }), true);
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  if (creating) return <ProfileForm onDone={() => setCreating(false)} />;
  const needle = query.trim().toLowerCase();
  const shown = list?.filter((profile) => profile.name.toLowerCase().includes(needle));
  const proxyOf = ({ proxy, proxy_id }: Profile) =>
    proxies?.find(({ id }) => id === proxy_id)?.name ?? proxy ?? t(proxy_id ? 'savedProxy' : 'noProxy');
  return (
    <section class="stack">
      <div class="bar">
        <input
          type="search"
          aria-label={t('searchProfiles')}
          placeholder={t('searchProfiles')}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
        <button type="button" onClick={() => setCreating(true)}>
          {t('newProfile')}
        </button>
      </div>
      <Problem error={task.error} retry={refresh} />
      <ListState
        list={shown}
        busy={task.busy}
        loading={t('loadingProfiles')}
        empty={needle ? t('noProfileMatches') : t('noProfiles')}
      />
      <ul class="rows">
        {shown?.map((profile) => (
          <ProfileRow
            key={profile.id}
            profile={profile}
            proxy={proxyOf(profile)}
            focused={profile.id === focus}
          />
        ))}
      </ul>
    </section>
  );
}

function ProfileRow({ profile, proxy, focused }: { profile: Profile; proxy: string; focused: boolean }) {
  const { id, name } = profile;
  const task = useTask();
  /** Whether a confirmation is open, and whether it is the one for a running profile. */
  const [confirm, setConfirm] = useState<'idle' | 'running' | null>(null);
  const running = profile.status === 'running';

  function remove() {
    task
      .run(() => connector.send({ type: 'profile.delete', profileId: id, force: confirm === 'running' }))
      .then((reply) => !reply.ok && reply.error.code === 'profile_running' && setConfirm('running'));
  }

  return (
    <li class={focused ? 'row focused' : 'row'} aria-current={focused || undefined}>
      <div class="grow">
        <strong>{name}</strong>
        <span class={running ? 'status on' : 'status'}>{running ? t('running') : t('idle')}</span>
        <small class="muted">{proxy}</small>
      </div>
      <button
        type="button"
        disabled={task.busy}
        aria-label={t(running ? 'stopNamed' : 'startNamed', name)}
        onClick={() =>
          task.run(() =>
            running
              ? connector.send({ type: 'session.stop', profileId: id })
              : connector.send({ type: 'session.start', profileId: id }),
          )
        }
      >
        {t(running ? 'stop' : 'start')}
      </button>
      <button
        type="button"
        disabled={task.busy}
        aria-label={t('deleteNamed', name)}
        onClick={() => setConfirm(running ? 'running' : 'idle')}
      >
        {t('delete')}
      </button>
      {confirm && (
        <Confirm
          question={t(confirm === 'running' ? 'deleteRunningQuestion' : 'deleteQuestion', name)}
          action={t(confirm === 'running' ? 'stopAndDelete' : 'delete')}
          busy={task.busy}
          onConfirm={remove}
          onCancel={() => setConfirm(null)}
        />
      )}
      <Problem error={task.error} />
    </li>
  );
}

interface ConfirmProps {
  question: string;
  action: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A question in place, with the action and Cancel; the action has the focus so Enter or Escape decide. */
function Confirm({ question, action, busy, onConfirm, onCancel }: ConfirmProps) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <legend>{question}</legend>
      <button type="button" class="danger" ref={button} disabled={busy} onClick={onConfirm}>
        {action}
      </button>
      <button type="button" onClick={onCancel}>
        {t('cancel')}
      </button>
    </fieldset>
  );
}
