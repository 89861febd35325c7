import { useList, useTask } from '../../components/hooks';
import { useEditing } from '../../components/landing';
import { PasteBox } from '../../components/PasteBox';
import { ListState, Problem } from '../../components/Problem';
import { useSaidByBanner } from '../../components/service-down';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import type { Reply } from '../../lib/messaging/protocol';
import { cachedProxies } from '../../lib/storage';
import { ProxyForm } from './ProxyForm';
import { ProxyRow } from './ProxyRow';

/** The saved proxies: list, create, edit, delete. */
export function Proxies() {
  const { list, task, refresh } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }));
  const { editing, edit, close, land } = useEditing<ProxyConfig>();
  const down = useSaidByBanner();
  const checkAll = useTask();
  if (editing) return <ProxyForm proxy={editing === true ? undefined : editing} onDone={close} />;
  // Proxies kept from before are not shown under a service that cannot be reached: they may be stale.
  const shown = down ? undefined : list;
  return (
    <section class="stack">
      <div class="bar">
        <button type="button" data-lands="new" onClick={() => edit(true)}>
          {t('newProxy')}
        </button>
        {shown?.length ? (
          <button
            type="button"
            aria-disabled={checkAll.busy}
            onClick={() => checkAll.busy || checkAll.run(() => checkEvery(shown))}
          >
            {checkAll.busy ? t('checking') : t('checkAllProxies')}
          </button>
        ) : null}
      </div>
      <PasteProxies />
      <Problem error={task.error} retry={refresh} />
      <Problem error={checkAll.error} />
      <ListState
        list={shown}
        busy={task.busy}
        loading={t('loadingProxies')}
        empty={t('noProxies')}
        action={{ label: t('addFirstProxy'), run: () => edit(true) }}
      />
      <ul class="rows">
        {shown?.map((proxy) => (
          <ProxyRow key={proxy.id} proxy={proxy} onEdit={() => edit(proxy)} onDeleted={() => land('')} />
        ))}
      </ul>
    </section>
  );
}

/** Checks every proxy at once; each result lands in the kept checks its row shows. The first failure answers. */
async function checkEvery(proxies: ProxyConfig[]): Promise<Reply<undefined>> {
  const replies = await Promise.all(
    proxies.map(({ id }) => connector.send({ type: 'proxy.check', proxyId: id })),
  );
  return replies.find((reply) => !reply.ok) ?? { ok: true, value: undefined };
}

/** Proxies created from a pasted list, one a line, with what became of each line. */
function PasteProxies() {
  return (
    <details>
      <summary>{t('pasteProxies')}</summary>
      <div class="stack">
        <PasteBox
          label={t('pasteProxiesLabel')}
          action={t('addProxies')}
          send={(text) => connector.send({ type: 'proxies.paste', text })}
          outcomeOf={({ report, refused }) =>
            [...report, ...(refused.length ? [t('pastedRefusedKept')] : [])].join('\n')
          }
          kept={({ refused }) => refused.join('\n')}
        />
      </div>
    </details>
  );
}
