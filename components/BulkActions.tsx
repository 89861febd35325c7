import { useEffect, useRef, useState } from 'preact/hooks';
import type { BulkRequestInput, BulkSelection } from '../lib/api/inputs/bulk';
import type { BulkResult } from '../lib/api/schemas/bulk';
import type { Profile } from '../lib/api/schemas/profiles';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { cachedProxies, cachedSessions, type ProfileFilter, plan, quota, savedScripts } from '../lib/storage';
import { startingText } from './bulk-start-text';
import { download } from './download';
import { useItem } from './hooks';
import { bulkCostText } from './quota';

type Action = 'start' | 'stop' | 'delete' | 'proxy' | 'tags' | 'run' | 'cookies';
const ACTIONS: Action[] = ['start', 'stop', 'delete', 'proxy', 'tags', 'run', 'cookies'];
/** Actions whose bar button says how many profiles it is for; the others open a question first. */
const COUNTED: Action[] = ['start', 'stop', 'delete'];
/** Every profile a list's filter matches, in the list's order, as a bulk action's selection. */
export const allMatching = ({ q, tag, status, sort }: ProfileFilter): BulkSelection => ({
  filter: { q: q?.trim() || undefined, tag, status, sort },
});

/** Failures named one by one in the outcome; the rest are counted. */
const NAMED_FAILURES = 10;

/**
 * One action on the selected profiles, in one request to the service whatever their number: the ids picked, or
 * every profile the list's filter matches ("select all matching"), which the service finds itself. Each asks
 * first, saying what will happen, with a button that says the same number; the outcome names each failure.
 */
export function BulkActions({
  selection,
  count,
  picked,
  onDone,
}: {
  selection: BulkSelection;
  count: number;
  /** The profiles picked one by one and listed (empty for a filter), to name them in the outcome. */
  picked: Profile[];
  onDone: (outcome: string) => void;
}) {
  const seen = useItem(quota);
  const limits = useItem(plan);
  const proxies = useItem(cachedProxies)?.data ?? [];
  const scripts = useItem(savedScripts) ?? {};
  const running = useItem(cachedSessions)?.data.length ?? 0;
  const [asking, setAsking] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [value, setValue] = useState('');
  const [pasted, setPasted] = useState('');
  const opener = useRef<HTMLButtonElement | null>(null);
  const question = useRef<HTMLFieldSetElement>(null);
  // Delete's safe answer, Cancel, has the focus; otherwise the question's first control.
  useEffect(() => {
    const controls = question.current?.querySelectorAll<HTMLElement>('select, textarea, input, button');
    (asking === 'delete' ? controls?.[controls.length - 1] : controls?.[0])?.focus();
  }, [asking]);
  const room = limits ? Math.max(0, limits.sessionLimit - running) : Number.POSITIVE_INFINITY;
  const lines = pasted.split(/\r?\n/).filter((line) => line.trim());
  const tags = value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  /** Picked one by one, start and stop are for those not running and those running (starts beyond room wait). */
  const chosen = (action: Action) =>
    picked.filter(({ status }) => (status === 'running') === (action === 'stop'));
  const startable = selection.ids ? picked.filter(({ status }) => status !== 'running').length : count;
  const byIds = (action: Action) => selection.ids !== undefined && (action === 'start' || action === 'stop');
  const number = (action: Action) => (byIds(action) ? chosen(action).length : count);

  /** The request an answered question sends; null while what it needs is missing. */
  function request(action: Action, removing = false): BulkRequestInput | null {
    const select = byIds(action) ? { ids: chosen(action).map(({ id }) => id) } : selection;
    if (select.ids?.length === 0) return null;
    if (action === 'proxy') {
      if (lines.length)
        return lines.length === count ? { select, action: 'set_proxy', proxies: lines } : null;
      return value ? { select, action: 'set_proxy', proxy_id: value } : { select, action: 'clear_proxy' };
    }
    if (action === 'tags')
      return tags.length ? { select, action: removing ? 'remove_tags' : 'add_tags', tags } : null;
    if (action === 'run') {
      const script = scripts[value];
      return script ? { select, action: 'run', script, name: value } : null;
    }
    if (action === 'cookies') return { select, action: 'export_cookies' };
    return { select, action, ...(action === 'delete' ? { force: true } : {}) };
  }

  async function send(body: BulkRequestInput) {
    setBusy(true);
    const reply = await connector.send({ type: 'profiles.bulk', request: body });
    setBusy(false);
    setAsking(null);
    if (!reply.ok) return onDone(reply.error.message);
    const result = reply.value;
    if (body.action === 'start' || body.action === 'stop') void connector.send({ type: 'sessions.refresh' });
    if (body.action === 'export_cookies') saveCookies(result);
    onDone(outcomeText(body.action, result));
  }

  function saveCookies(result: BulkResult) {
    const named = result.items
      .filter((item) => item.ok)
      .map(({ id, name, cookies }) => ({ id, name: name ?? id, cookies }));
    download(JSON.stringify(named, null, 2), 'cookies.json', 'application/json');
  }

  function outcomeText(action: string, result: BulkResult): string {
    const failed = result.items.filter((item) => !item.ok);
    const lines = failed
      .slice(0, NAMED_FAILURES)
      .map(({ id, name, problem }) => `${name ?? id}: ${problem?.detail}`);
    if (failed.length > NAMED_FAILURES) lines.push(t('bulkMoreFailed', failed.length - NAMED_FAILURES));
    const done = result.batch_id
      ? t('bulkDone_batch', result.succeeded, result.selected)
      : action === 'start'
        ? startingText(result)
        : t(`bulkDone_${action}` as 'bulkDone_stop', result.succeeded, result.selected);
    return [done, ...lines].join('\n');
  }

  function questionText(action: Action): string {
    const cap =
      action === 'start' && startable > room && limits
        ? ` ${t('bulkOverSessions', limits.name, limits.sessionLimit, running, room)}`
        : '';
    return `${t(`bulkQuestion_${action}`, number(action))}${cap} ${bulkCostText(seen, number(action))}`;
  }

  const confirmButton = (action: Action, removing = false) => {
    const body = request(action, removing);
    const label = action === 'tags' && removing ? 'bulk_untag' : `bulk_${action}`;
    return (
      <button
        type="button"
        class={action === 'delete' ? 'danger' : 'primary'}
        disabled={busy || !body}
        onClick={() => body && send(body)}
      >
        {t(label as 'bulk_start', number(action))}
      </button>
    );
  };

  if (count === 0) return null;
  return (
    <div class="stack bulk">
      <div class="bar wrap">
        <span class="grow" role="status">
          {t('selectedCount', count)}
        </span>
        {ACTIONS.map((action) => (
          <button
            key={action}
            type="button"
            class={action === 'delete' ? 'danger' : undefined}
            aria-expanded={asking === action}
            disabled={busy || number(action) === 0}
            onClick={(event) => {
              // A start that spends nothing worth asking about is not asked about.
              const unlimited = seen?.limit === null || limits?.hourlyLimit === null;
              const body = action === 'start' && unlimited && startable <= room && request('start');
              if (body) return void send(body);
              opener.current = event.currentTarget;
              setValue('');
              setPasted('');
              setAsking(asking === action ? null : action);
            }}
          >
            {COUNTED.includes(action)
              ? t(`bulk_${action}` as 'bulk_start', number(action))
              : t(`bulkOpen_${action}` as 'bulkOpen_run')}
          </button>
        ))}
      </div>
      {asking && (
        <fieldset
          ref={question}
          class="confirm stack"
          onKeyDown={(event) => event.key === 'Escape' && setAsking(null)}
        >
          <legend>{questionText(asking)}</legend>
          {asking === 'proxy' && (
            <>
              <label>
                {t('bulkProxyPick')}
                <select value={value} onInput={(event) => setValue(event.currentTarget.value)}>
                  <option value="">{t('noProxy')}</option>
                  {proxies.map((proxy) => (
                    <option key={proxy.id} value={proxy.id}>
                      {proxy.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t('bulkProxyPaste')}
                <textarea
                  rows={3}
                  class="code"
                  value={pasted}
                  onInput={(event) => setPasted(event.currentTarget.value)}
                />
              </label>
              {lines.length > 0 && lines.length !== count && (
                <p class="muted">{t('bulkProxyUneven', lines.length, count)}</p>
              )}
            </>
          )}
          {asking === 'tags' && (
            <label>
              {t('bulkTagsField')}
              <input value={value} onInput={(event) => setValue(event.currentTarget.value)} />
            </label>
          )}
          {asking === 'run' && (
            <label>
              {t('bulkRunPick')}
              <select value={value} onInput={(event) => setValue(event.currentTarget.value)}>
                <option value="">{t('chooseScript')}</option>
                {Object.keys(scripts).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <div class="bar">
            {confirmButton(asking)}
            {asking === 'tags' && confirmButton('tags', true)}
            <button
              type="button"
              onClick={() => {
                setAsking(null);
                opener.current?.focus();
              }}
            >
              {t('cancel')}
            </button>
          </div>
          {busy && (
            <p role="status" class="muted">
              {t('working')}
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}
