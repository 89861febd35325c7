import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { proxyCheckText } from '../../components/proxy-check';
import type { ProxyCheck, ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { fromNow } from '../../lib/when';

/**
 * One saved proxy: its address, whether it has a password, how many profiles use it and its last check; Check,
 * Edit, and Delete after a question.
 */
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
  /** A check made here, newer than the list's; else the last the service kept. Works and fails look different. */
  const [fresh, setFresh] = useState<ProxyCheck & { checked_at: string }>();
  const checked = fresh ?? proxy.last_check;
  const deleteButton = useRef<HTMLButtonElement>(null);
  const check = () =>
    task
      .run(() => connector.send({ type: 'proxy.check', proxyId: proxy.id }))
      .then((reply) => reply.ok && setFresh({ ...reply.value, checked_at: new Date().toISOString() }));
  const uses = proxy.used_by;
  return (
    <li class="row proxy">
      <div class="grow">
        <strong>{proxy.name}</strong>
        <small class="muted">
          {proxy.scheme}://{proxy.host}:{proxy.port} · {t(proxy.has_password ? 'passwordSet' : 'noPassword')}{' '}
          · {uses > 1 ? t('usedBy', uses) : t(uses ? 'usedByOne' : 'usedByNone')}
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
          class={checked.ok ? 'check-result works' : 'check-result fails'}
          title={t('checkedAgo', fromNow(checked.checked_at))}
        >
          {proxyCheckText(checked)}
        </p>
      )}
      <Problem error={task.error} />
    </li>
  );
}
