import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

interface ProfileRowProps {
  profile: Profile;
  /** The proxy as a person knows it: a saved proxy's name, or the URL. */
  proxy: string;
  focused: boolean;
  /** Narrows the list to a tag of this profile. */
  onTag: (tag: string) => void;
  onEdit: () => void;
  /** It was deleted: its row goes. */
  onDeleted: () => void;
  selected: boolean;
  onSelect: (selected: boolean) => void;
}

/** One profile: its status, proxy and tags, Start or Stop, Delete after a question. */
export function ProfileRow(props: ProfileRowProps) {
  const { profile, proxy, focused, onTag, onEdit, onDeleted, selected, onSelect } = props;
  const { id, name } = profile;
  const task = useTask();
  /** Whether a confirmation is open, and whether it is the one for a running profile. */
  const [confirm, setConfirm] = useState<'idle' | 'running' | null>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const running = profile.status === 'running';

  function remove() {
    task
      .run(() => connector.send({ type: 'profile.delete', profileId: id, force: confirm === 'running' }))
      .then((reply) => {
        if (reply.ok) onDeleted();
        else if (reply.error.code === 'profile_running') setConfirm('running');
      });
  }

  return (
    <li class={focused ? 'row focused' : 'row'} aria-current={focused || undefined}>
      <input
        type="checkbox"
        class="pick"
        aria-label={t('selectNamed', name)}
        checked={selected}
        onInput={(event) => onSelect(event.currentTarget.checked)}
      />
      <div class="grow">
        <strong>{name}</strong>
        <span class={running ? 'status on' : 'status'}>{running ? t('running') : t('idle')}</span>
        <small class="muted">{proxy}</small>
        {profile.tags.map((tag) => (
          <button
            key={tag}
            type="button"
            class="tag"
            aria-label={t('showTagged', tag)}
            onClick={() => onTag(tag)}
          >
            {tag}
          </button>
        ))}
      </div>
      {/* Busy, it keeps the focus and says what is under way. */}
      <button
        type="button"
        aria-disabled={task.busy}
        aria-label={
          task.busy
            ? `${t(running ? 'stopping' : 'starting')} ${name}`
            : t(running ? 'stopNamed' : 'startNamed', name)
        }
        onClick={() =>
          task.busy ||
          task.run(() =>
            running
              ? connector.send({ type: 'session.stop', profileId: id })
              : connector.send({ type: 'session.start', profileId: id }),
          )
        }
      >
        {task.busy ? t(running ? 'stopping' : 'starting') : t(running ? 'stop' : 'start')}
      </button>
      <button type="button" data-lands={id} aria-label={t('editNamed', name)} onClick={onEdit}>
        {t('edit')}
      </button>
      <button
        type="button"
        disabled={task.busy}
        aria-label={t('cloneNamed', name)}
        onClick={() => task.run(() => connector.send({ type: 'profile.clone', profileId: id }))}
      >
        {t('clone')}
      </button>
      <button
        type="button"
        ref={deleteButton}
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
          destructive
          onConfirm={remove}
          onCancel={() => {
            setConfirm(null);
            deleteButton.current?.focus();
          }}
        />
      )}
      <Problem error={task.error} />
    </li>
  );
}
