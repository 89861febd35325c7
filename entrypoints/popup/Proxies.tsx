import { useEffect, useRef, useState } from 'preact/hooks';
import { Check } from '../../components/Check';
import { Fold } from '../../components/Fold';
import { useItem, useList, useSettled, useTask } from '../../components/hooks';
import { KeptList } from '../../components/KeptList';
import { useEditing } from '../../components/landing';
import { PasteBox } from '../../components/PasteBox';
import { ListState, Problem } from '../../components/Problem';
import { useRovingRows } from '../../components/roving';
import { SearchBox } from '../../components/SearchBox';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import type { Reply } from '../../lib/messaging/protocol';
import { PASTE_CHUNK, type PasteTally, pasteParts } from '../../lib/proxy-paste';
import { cachedProxies, proxyCheckJob } from '../../lib/storage';
import { TYPING_PAUSE_MS } from './ProfilePicker';
import { ProxyForm } from './ProxyForm';
import { ProxyRow } from './ProxyRow';
import { ReplaceFailing } from './ReplaceFailing';

/**
 * The saved proxies: list, search (name, user@host:port) and the failing ones only, run on the service; create,
 * edit, delete; Check all, which the service runs over every saved proxy and says how far it is; and the failing
 * ones replaced on their profiles.
 */
export function Proxies() {
  const { list, savedAt, task, refresh } = useList(cachedProxies, () =>
    connector.send({ type: 'proxies.refresh' }),
  );
  const { editing, edit, close, land } = useEditing<ProxyConfig>();
  const [q, setQ] = useState('');
  const [failing, setFailing] = useState(false);
  const asked = useSettled(q, TYPING_PAUSE_MS);
  /** The proxies the last search found; null while nothing narrows the list (the cached one is shown). */
  const [found, setFound] = useState<ProxyConfig[] | null>(null);
  const search = useTask();
  const checkAll = useTask();
  const job = useItem(proxyCheckJob);
  const checking = checkAll.busy || job?.state === 'running';
  const rows = useRef<HTMLUListElement>(null);
  const roving = useRovingRows(rows);
  const narrowed = Boolean(asked.trim()) || failing;
  const find = () =>
    narrowed
      ? search
          .run(() => connector.send({ type: 'proxies.search', q: asked, failing }))
          .then((reply) => reply.ok && setFound(reply.value))
      : setFound(null);
  // Found again as each check lands, when the list shown is narrowed (by failing, say).
  useEffect(() => void find(), [asked, failing, job?.checked]);
  if (editing) return <ProxyForm proxy={editing === true ? undefined : editing} onDone={close} />;
  const shown = (narrowed && found) || list;

  return (
    <KeptList savedAt={savedAt}>
      <div class="bar">
        <SearchBox label={t('searchProxies')} hint={t('searchProxiesHint')} value={q} onText={setQ} />
        <Check checked={failing} onCheck={setFailing}>
          {t('failingOnly')}
        </Check>
      </div>
      <div class="bar">
        <button type="button" data-lands="new" onClick={() => edit(true)}>
          {t('newProxy')}
        </button>
        {shown?.length ? (
          <button
            type="button"
            aria-disabled={checking}
            onClick={() => checking || checkAll.run(() => connector.send({ type: 'proxies.checkAll' }))}
          >
            {checking ? t('checking') : t('checkAllProxies')}
          </button>
        ) : null}
        {job && (
          <span class="muted" role="status">
            {t('nCheckedFailing', job.checked, job.total, job.failing)}
          </span>
        )}
      </div>
      <PasteProxies />
      {failing && found?.length ? <ReplaceFailing failing={found} onDone={find} /> : null}
      <Problem error={task.error} retry={refresh} />
      <Problem error={search.error} retry={find} />
      <Problem error={checkAll.error} />
      <ListState
        list={shown}
        busy={task.busy || search.busy}
        loading={t('loadingProxies')}
        empty={narrowed ? t('noProxyMatches') : t('noProxies')}
        action={narrowed ? undefined : { label: t('addFirstProxy'), run: () => edit(true) }}
      />
      <ul class="rows" ref={rows} {...roving}>
        {shown?.map((proxy) => (
          <ProxyRow key={proxy.id} proxy={proxy} onEdit={() => edit(proxy)} onDeleted={() => land('')} />
        ))}
      </ul>
    </KeptList>
  );
}

/**
 * Proxies saved from a pasted list, a part at a time with the progress on the button, ending with the total; the
 * lines refused stay in the box.
 */
function PasteProxies() {
  const [progress, setProgress] = useState('');
  async function send(text: string): Promise<Reply<{ tally: PasteTally; summary: string }>> {
    const parts = pasteParts(text);
    const total = parts.flat().length;
    let done: Reply<{ tally: PasteTally; summary: string }> = {
      ok: true,
      value: { tally: { added: 0, known: 0, refused: [] }, summary: '' },
    };
    for (const [index, lines] of parts.entries()) {
      if (!done.ok) break;
      setProgress(t('pastedProgress', index * PASTE_CHUNK, total));
      done = await connector.send({ type: 'proxies.paste', lines, tally: done.value.tally });
    }
    return done;
  }
  return (
    <Fold title={t('pasteProxies')}>
      <PasteBox
        label={t('pasteProxiesLabel')}
        action={t('addProxies')}
        busyAction={progress}
        send={send}
        outcomeOf={({ tally, summary }) =>
          [summary, ...(tally.refused.length ? [t('pastedRefusedKept')] : [])].join('\n')
        }
        kept={({ tally }) => tally.refused.map(({ text }) => text).join('\n')}
      />
    </Fold>
  );
}
