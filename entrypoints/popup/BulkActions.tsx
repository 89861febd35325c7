import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useItem } from '../../components/hooks';
import { costText } from '../../components/quota';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import type { Reply } from '../../lib/messaging/protocol';
import { cachedSessions, plan, quota } from '../../lib/storage';

type Action = 'start' | 'stop' | 'delete';

/** Which of the selected profiles an action applies to: each costs one request. */
const TARGETS: Record<Action, (profile: Profile) => boolean> = {
  start: (profile) => profile.status !== 'running',
  stop: (profile) => profile.status === 'running',
  delete: () => true,
};

function send(action: Action, profileId: string): Promise<Reply<unknown>> {
  if (action === 'start') return connector.send({ type: 'session.start', profileId });
  if (action === 'stop') return connector.send({ type: 'session.stop', profileId });
  return connector.send({ type: 'profile.delete', profileId, force: true });
}

/**
 * Start, stop or delete the selected profiles, one request each. Before, it says what that spends of the
 * requests left this hour and whether the plan's sessions at once leave room; a start that spends nothing
 * worth asking about is not asked about. Drawn only while profiles are selected, and mounted before, so that
 * what it warns from is read by then.
 */
export function BulkActions({
  selected,
  onDone,
}: {
  selected: Profile[];
  onDone: (outcome: string) => void;
}) {
  const seen = useItem(quota);
  const limits = useItem(plan);
  const running = useItem(cachedSessions)?.data.length ?? 0;
  const [asking, setAsking] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const targets = (action: Action) => selected.filter(TARGETS[action]);
  const room = limits ? Math.max(0, limits.sessionLimit - running) : Number.POSITIVE_INFINITY;
  const overCap = targets('start').length > room;
  /** What an answered question does: no more starts than the plan has room for, which the service would refuse. */
  const chosenFor = (action: Action) =>
    action === 'start' && overCap ? targets(action).slice(0, room) : targets(action);

  async function run(action: Action) {
    setBusy(true);
    const chosen = chosenFor(action);
    const failed: string[] = [];
    let done = 0;
    for (const profile of chosen) {
      const reply = await send(action, profile.id);
      if (reply.ok) done += 1;
      // The plan's cap refuses every further start alike: said once, and no more requests spent on it.
      else if (reply.error.code === 'session_limit') {
        failed.push(t('bulkStoppedAtCap', reply.error.message));
        break;
      } else failed.push(`${profile.name}: ${reply.error.message}`);
    }
    setBusy(false);
    setAsking(null);
    onDone([t(`bulkDone_${action}`, done, chosen.length), ...failed].join('\n'));
  }

  function ask(action: Action, button: HTMLButtonElement) {
    const unlimited = seen?.limit === null || limits?.hourlyLimit === null;
    if (action === 'start' && unlimited && !overCap) return void run(action);
    opener.current = button;
    setAsking(action);
  }

  function question(action: Action): string {
    const count = targets(action).length;
    const cap =
      action === 'start' && overCap && limits
        ? ` ${t('bulkOverSessions', limits.name, limits.sessionLimit, running, room)}`
        : '';
    return `${t(`bulkQuestion_${action}`, count)}${cap} ${costText(seen, count)}`;
  }

  const button = (action: Action) => (
    <button
      type="button"
      class={action === 'delete' ? 'danger' : undefined}
      disabled={busy || targets(action).length === 0}
      onClick={(event) => ask(action, event.currentTarget)}
    >
      {t(`bulk_${action}`, targets(action).length)}
    </button>
  );

  if (selected.length === 0) return null;
  return (
    <div class="stack bulk">
      <div class="bar">
        <span class="grow">{t('selectedCount', selected.length)}</span>
        {button('start')}
        {button('stop')}
        {button('delete')}
      </div>
      {busy && !asking && (
        <p role="status" class="muted">
          {t('starting')}
        </p>
      )}
      {asking && (
        <Confirm
          question={question(asking)}
          action={t(`bulk_${asking}`, chosenFor(asking).length)}
          busy={busy || chosenFor(asking).length === 0}
          destructive={asking === 'delete'}
          onConfirm={() => run(asking)}
          onCancel={() => {
            setAsking(null);
            opener.current?.focus();
          }}
        />
      )}
    </div>
  );
}
