import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { proxyCheckText } from '../../components/proxy-check';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { proxyChecks } from '../../lib/storage';
import { fromNow } from '../../lib/when';

/** One saved proxy: its address and whether it has a password, Edit, and Delete after a question. */
export function ProxyRow({
  proxy,
  onEdit,
  onDeleted,
}: {
  proxy: ProxyConfig;
  onEdit: () => void;
  /** It was deleted: its row goes. */
  onDeleted: () => void;
}) {
  const task = useTask();
  const [confirm, setConfirm] = useState(false);
  /** The last check, whichever popup asked for it: the worker keeps it. Works and fails look different. */
  const checked = useItem(proxyChecks)?.[proxy.id];
  const deleteButton = useRef<HTMLButtonElement>(null);
  const check = () => task.run(() => connector.send({ type: 'proxy.check', proxyId: proxy.id }));
  return (
    <li class="row">
      <div class="grow">
        <strong>{proxy.name}</strong>
        <small class="muted">
          {proxy.scheme}://{proxy.host}:{proxy.port} · {t(proxy.has_password ? 'passwordSet' : 'noPassword')}
        </small>
      </div>
      {/* Busy, it keeps the focus and says what is under way. */}
      <button
        type="button"
        aria-disabled={task.busy}
        aria-label={t('checkNamed', proxy.name)}
        onClick={() => task.busy || check()}
      >
        {task.busy ? t('checking') : t('check')}
      </button>
      <button type="button" data-lands={proxy.id} aria-label={t('editNamed', proxy.name)} onClick={onEdit}>
        {t('edit')}
      </button>
      <button
        type="button"
        ref={deleteButton}
        disabled={task.busy}
        aria-label={t('deleteNamed', proxy.name)}
        onClick={() => setConfirm(true)}
      >
        {t('delete')}
      </button>
      {confirm && (
        <Confirm
          question={t('deleteProxyQuestion', proxy.name)}
          action={t('delete')}
          destructive
          busy={task.busy}
          onConfirm={() =>
            task
              .run(() => connector.send({ type: 'proxy.delete', proxyId: proxy.id }))
              .then((reply) => {
                setConfirm(false);
                if (reply.ok) onDeleted();
                else deleteButton.current?.focus();
              })
          }
          onCancel={() => {
            setConfirm(false);
            deleteButton.current?.focus();
          }}
        />
      )}
      {checked && !task.busy && (
        <p
          role="status"
          class={checked.check.ok ? 'check-result works' : 'check-result fails'}
          title={t('checkedAgo', fromNow(new Date(checked.at).toISOString()))}
        >
          {proxyCheckText(checked.check)}
        </p>
      )}
      <Problem error={task.error} />
    </li>
  );
}
