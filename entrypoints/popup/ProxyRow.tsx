import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { proxyCheckText } from '../../components/proxy-check';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

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
  /** The last check's sentence, and whether the proxy worked: the two look different. */
  const [checked, setChecked] = useState<{ text: string; works: boolean } | null>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  async function check() {
    setChecked(null);
    const reply = await task.run(() => connector.send({ type: 'proxy.check', proxyId: proxy.id }));
    if (reply.ok) setChecked({ text: proxyCheckText(reply.value), works: reply.value.ok });
  }
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
      {checked && (
        <p role="status" class={checked.works ? 'check-result works' : 'check-result fails'}>
          {checked.text}
        </p>
      )}
      <Problem error={task.error} />
    </li>
  );
}
