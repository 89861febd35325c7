import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useItem } from '../../components/hooks';
import { costText } from '../../components/quota';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import type { Reply } from '../../lib/messaging/protocol';
import { quota } from '../../lib/storage';

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
 * Start, stop or delete the selected profiles, one request each, after saying how many requests that spends of
 * what is left this hour.
 */
export function BulkActions({
  selected,
  onDone,
}: {
  selected: Profile[];
  onDone: (outcome: string) => void;
}) {
  const seen = useItem(quota);
  const [asking, setAsking] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const targets = (action: Action) => selected.filter(TARGETS[action]);

  async function run(action: Action) {
    setBusy(true);
    const chosen = targets(action);
    const failed: string[] = [];
    for (const profile of chosen) {
      const reply = await send(action, profile.id);
      if (!reply.ok) failed.push(`${profile.name}: ${reply.error.message}`);
    }
    setBusy(false);
    setAsking(null);
    onDone([t(`bulkDone_${action}`, chosen.length - failed.length, chosen.length), ...failed].join('\n'));
  }

  const button = (action: Action) => (
    <button
      type="button"
      disabled={busy || targets(action).length === 0}
      onClick={(event) => {
        opener.current = event.currentTarget;
        setAsking(action);
      }}
    >
      {t(`bulk_${action}`, targets(action).length)}
    </button>
  );

  return (
    <div class="stack bulk">
      <div class="bar">
        <span class="grow">{t('selectedCount', selected.length)}</span>
        {button('start')}
        {button('stop')}
        {button('delete')}
      </div>
      {asking && (
        <Confirm
          question={`${t(`bulkQuestion_${asking}`, targets(asking).length)} ${costText(seen, targets(asking).length)}`}
          action={t(`bulk_${asking}`, targets(asking).length)}
          busy={busy}
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
