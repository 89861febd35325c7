import { useState } from 'preact/hooks';
import { useList } from '../../components/hooks';
import { useLanding } from '../../components/landing';
import { ListState, Problem } from '../../components/Problem';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProxies } from '../../lib/storage';
import { ProxyForm } from './ProxyForm';
import { ProxyRow } from './ProxyRow';

/** The saved proxies: list, create, edit, delete. */
export function Proxies() {
  const { list, task, refresh } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }));
  /** The proxy being edited, or `true` for a new one. */
  const [editing, setEditing] = useState<ProxyConfig | true | null>(null);
  const land = useLanding();
  if (editing)
    return (
      <ProxyForm
        proxy={editing === true ? undefined : editing}
        onDone={(savedId) => {
          setEditing(null);
          land(savedId ?? (editing === true ? 'new' : editing.id));
        }}
      />
    );
  return (
    <section class="stack">
      <div class="bar">
        <button type="button" data-lands="new" onClick={() => setEditing(true)}>
          {t('newProxy')}
        </button>
      </div>
      <Problem error={task.error} retry={refresh} />
      <ListState list={list} busy={task.busy} loading={t('loadingProxies')} empty={t('noProxies')} />
      <ul class="rows">
        {list?.map((proxy) => (
          <ProxyRow
            key={proxy.id}
            proxy={proxy}
            onEdit={() => setEditing(proxy)}
            onDeleted={() => land('')}
          />
        ))}
      </ul>
    </section>
  );
}
