import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useTask } from '../../components/hooks';
import type { May } from '../../components/may';
import { Problem } from '../../components/Problem';
import { RowMenu } from '../../components/RowMenu';
import { StartStop } from '../../components/StartStop';
import type { HeldBy, Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { clockTime, exactly, fromNow } from '../../lib/when';

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
  /** Another member who holds the profile now. */
  holder: HeldBy | null;
  /** Its start waits in the service's line for a free browser. */
  waiting: boolean;
  may: May;
}

/**
 * One profile in dense lines of what sets it apart: its name and status, then when it was last used, its proxy
 * with how its last check went, and its notes; who else holds it ("Eve · 10:32"); its tags. One primary action
 * (Start or Stop), the rest (Edit, Clone, Delete after a question, a tag's filter) behind ⋯, each only if the
 * key's role may take it.
 */
export function ProfileRow(props: ProfileRowProps) {
  const { profile, proxy, focused, onTag, onEdit, onDeleted, selected, onSelect, holder, waiting, may } =
    props;
  const { id, name } = profile;
  const task = useTask();
  /** Whether a confirmation is open, and whether it is the one for a running profile. */
  const [confirm, setConfirm] = useState<'idle' | 'running' | null>(null);
  const row = useRef<HTMLLIElement>(null);
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
    <li ref={row} class={focused ? 'row profile focused' : 'row profile'} aria-current={focused || undefined}>
      <input
        type="checkbox"
        class="pick"
        aria-label={t('selectNamed', name)}
        checked={selected}
        onInput={(event) => onSelect(event.currentTarget.checked)}
      />
      <div class={profile.tags.length ? 'grow tagged' : 'grow'}>
        <strong class="name" title={name}>
          {name}
        </strong>
        <span class={running ? 'status on' : 'status'}>
          {running ? t('running') : waiting ? t('waitingForRoom') : t('idle')}
        </span>
        <small class="muted meta" title={profile.notes || undefined}>
          {holder && (
            <span class="holder" title={t('heldBySince', holder.member.name, exactly(holder.since))}>
              {holder.member.name} · {clockTime(holder.since)} ·{' '}
            </span>
          )}
          {profile.last_used_at ? (
            <time dateTime={profile.last_used_at} title={exactly(profile.last_used_at)}>
              {t('lastUsed', fromNow(profile.last_used_at))}
            </time>
          ) : (
            t('neverUsed')
          )}
          {[proxy, profile.notes].filter(Boolean).map((part) => ` · ${part}`)}
        </small>
        {profile.tags.length > 0 && (
          <small class="tags">
            {profile.tags.map((tag, n) => [
              n > 0 && ' ',
              <span key={tag} title={`#${tag}`}>
                #{tag}
              </span>,
            ])}
          </small>
        )}
      </div>
      {may(running ? 'stopSession' : 'startSession') && (
        <StartStop profile={profile} running={running} task={task} holder={holder} waiting={waiting} />
      )}
      <RowMenu label={t('moreActionsNamed', name)} lands={id}>
        {may('updateProfile') && (
          <button type="button" aria-label={t('editNamed', name)} onClick={onEdit}>
            {t('edit')}
          </button>
        )}
        {may('cloneProfile') && (
          <button
            type="button"
            disabled={task.busy}
            aria-label={t('cloneNamed', name)}
            onClick={() => task.run(() => connector.send({ type: 'profile.clone', profileId: id }))}
          >
            {t('clone')}
          </button>
        )}
        {profile.tags.map((tag) => (
          <button key={tag} type="button" aria-label={t('showTagged', tag)} onClick={() => onTag(tag)}>
            {t('showTaggedShort', tag)}
          </button>
        ))}
        {may('deleteProfile') && (
          <button
            type="button"
            class="danger"
            disabled={task.busy}
            aria-label={t('deleteNamed', name)}
            onClick={() => setConfirm(running ? 'running' : 'idle')}
          >
            {t('delete')}
          </button>
        )}
      </RowMenu>
      {confirm && (
        <Confirm
          question={t(confirm === 'running' ? 'deleteRunningQuestion' : 'deleteQuestion', name)}
          action={t(confirm === 'running' ? 'stopAndDelete' : 'delete')}
          busy={task.busy}
          destructive
          onConfirm={remove}
          onCancel={() => {
            setConfirm(null);
            // Delete was in the menu, closed now: the focus goes back to the menu's button.
            row.current?.querySelector<HTMLElement>('.menu > button')?.focus();
          }}
        />
      )}
      <Problem error={task.error} />
    </li>
  );
}
