import type { HeldBy, Profile } from '../lib/api/schemas/profiles';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { clockTime } from '../lib/when';
import type { useTask } from './hooks';

/**
 * A profile's one primary action, Start or Stop; busy, it keeps the focus and says what is under way. On a
 * profile another member holds, Start says who (the service refuses it with the same sentence). While the
 * profile's start waits in the service's line for a free browser, Start is off and says so.
 */
export function StartStop({
  profile: { id, name },
  running,
  task,
  holder = null,
  waiting = false,
}: {
  profile: Profile;
  running: boolean;
  task: ReturnType<typeof useTask>;
  holder?: HeldBy | null;
  waiting?: boolean;
}) {
  if (waiting && !running)
    return (
      <button type="button" aria-disabled="true" aria-label={`${t('waitingForRoom')} ${name}`}>
        {t('start')}
      </button>
    );
  return (
    <button
      type="button"
      class={running ? undefined : 'primary'}
      title={holder && !running ? t('heldBy', name, holder.member.name, clockTime(holder.since)) : undefined}
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
  );
}
