import { useState } from 'preact/hooks';
import type { BulkRequestInput, BulkSelection } from '../lib/api/inputs/bulk';
import type { BulkResult } from '../lib/api/schemas/bulk';
import type { Profile } from '../lib/api/schemas/profiles';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { cachedSessions, plan, quota } from '../lib/storage';
import { BulkQuestion } from './BulkQuestion';
import {
  type BulkAction,
  bulkRequest,
  COUNTED,
  numberFor,
  offeredActions,
  type Selected,
  startsWithoutAsking,
} from './bulk-rules';
import { outcomeText } from './bulk-text';
import { download } from './download';
import { useItem } from './hooks';
import { mayOf } from './may';

function saveCookies(result: BulkResult) {
  const named = result.items
    .filter((item) => item.ok)
    .map(({ id, name, cookies }) => ({ id, name: name ?? id, cookies }));
  download(JSON.stringify(named, null, 2), 'cookies.json', 'application/json');
}

/**
 * One action on the selected profiles, in one request to the service whatever their number: the ids picked, or
 * every profile the list's filter matches ("select all matching"), which the service finds itself. Each asks
 * first, saying what will happen, with a button that says the same number; the outcome names each failure.
 * Only the actions the key's role may take are offered.
 */
export function BulkActions({
  selection,
  count,
  picked,
  shown = [],
  onDone,
}: {
  selection: BulkSelection;
  count: number;
  /** The profiles picked one by one and listed (empty for a filter), to name them in the outcome. */
  picked: Profile[];
  /** The list's rows as shown: the first profiles of a selection by filter, in its order. */
  shown?: Profile[];
  onDone: (outcome: string) => void;
}) {
  const seen = useItem(quota);
  const limits = useItem(plan);
  const running = useItem(cachedSessions)?.data.length ?? 0;
  const [asking, setAsking] = useState<{ action: BulkAction; opener: HTMLElement } | null>(null);
  const [busy, setBusy] = useState(false);
  const order = selection.ids ? picked : shown;
  const selected: Selected = { selection, count, picked, order, running, limits };

  async function send(body: BulkRequestInput) {
    setBusy(true);
    const reply = await connector.send({ type: 'profiles.bulk', request: body });
    setBusy(false);
    setAsking(null);
    if (!reply.ok) return onDone(reply.error.message);
    if (body.action === 'start' || body.action === 'stop') void connector.send({ type: 'sessions.refresh' });
    if (body.action === 'export_cookies') saveCookies(reply.value);
    onDone(outcomeText(body.action, reply.value));
  }

  if (count === 0) return null;
  return (
    <div class="stack bulk">
      <div class="bar wrap">
        <span class="grow" role="status">
          {t('selectedCount', count)}
        </span>
        {offeredActions(selected, mayOf(limits)).map((action) => (
          <button
            key={action}
            type="button"
            class={action === 'delete' ? 'danger' : undefined}
            aria-expanded={asking?.action === action}
            disabled={busy}
            onClick={(event) => {
              const unlimited = seen?.limit === null || limits?.hourlyLimit === null;
              const body =
                action === 'start' &&
                startsWithoutAsking(selected, unlimited) &&
                bulkRequest(selected, 'start', { value: '', pasted: '', scripts: {} });
              if (body) return void send(body);
              setAsking(
                asking?.action === action ? null : { action, opener: event.currentTarget as HTMLElement },
              );
            }}
          >
            {COUNTED.includes(action)
              ? t(`bulk_${action}` as 'bulk_start', numberFor(selected, action))
              : t(`bulkOpen_${action}` as 'bulkOpen_run')}
          </button>
        ))}
      </div>
      {asking && (
        <BulkQuestion
          key={asking.action}
          action={asking.action}
          selected={selected}
          seen={seen}
          busy={busy}
          onSend={send}
          onCancel={() => {
            setAsking(null);
            asking.opener.focus();
          }}
        />
      )}
    </div>
  );
}
