import { useState } from 'preact/hooks';
import { EditorForm } from '../../components/EditorForm';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { check, errorAt } from '../../components/form';
import { useDraft, useTask } from '../../components/hooks';
import { ProxyInput } from '../../lib/api/inputs/proxies';
import { formatProxyUrl, PROXY_SCHEMES, parseProxyUrl, proxyLabel } from '../../lib/api/proxy-url';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

/** A new proxy, or a saved one to change. Pasting a whole proxy URL fills the fields. */
export function ProxyForm({
  proxy,
  onDone,
}: {
  proxy?: ProxyConfig | undefined;
  /** The form closed; with the id of the proxy saved, if it was. */
  onDone: (savedId?: string) => void;
}) {
  const { draft, update, bind, forget, lost } = useDraft(`proxy:${proxy?.id ?? 'new'}`, {
    url: '',
    name: proxy?.name ?? '',
    scheme: proxy?.scheme ?? 'http',
    host: proxy?.host ?? '',
    port: proxy ? String(proxy.port) : '',
    username: proxy?.username ?? '',
    password: '',
  });
  // A saved password stays as it is until the person types in its field; emptying the field then removes it.
  const [passwordTouched, setPasswordTouched] = useState(!proxy);
  const [tried, setTried] = useState(false);
  const task = useTask();
  // Opening the form moves the focus into it.
  const pasted = draft.url ? parseProxyUrl(draft.url) : null;
  const body = {
    // Left empty, the service names it user@host:port.
    ...(draft.name.trim() ? { name: draft.name } : {}),
    scheme: draft.scheme,
    host: draft.host,
    port: draft.port.trim() ? Number(draft.port) : undefined,
    username: draft.username || null,
    ...(passwordTouched && (proxy || draft.password) ? { password: draft.password || null } : {}),
  };
  const local = [
    ...check(ProxyInput, body),
    // Typed before the popup closed, and never kept: saving now would save the proxy without it.
    ...(lost.includes('password') ? [{ path: 'password', message: t('passwordNotKept') }] : []),
  ];
  const shown = (field: keyof typeof draft) =>
    errorAt(local, field) && (tried || draft[field] || lost.includes(field))
      ? errorAt(local, field)
      : errorAt(task.error?.fieldErrors, field);

  function paste(event: Event) {
    const url = (event.currentTarget as HTMLInputElement).value;
    const parts = parseProxyUrl(url);
    if ('error' in parts) return update({ url });
    // The password goes to its own field, which is never kept; the URL shows without it (and, typed on after
    // that, keeps the password taken from it while the user is the same).
    const username = parts.username ?? '';
    update({
      url: formatProxyUrl(parts),
      ...parts,
      port: String(parts.port),
      username,
      password: parts.password ?? (username === draft.username ? draft.password : ''),
    });
    setPasswordTouched(true);
  }

  function save(event: Event) {
    event.preventDefault();
    setTried(true);
    if (local.length || task.busy) return;
    task
      // The schema passed it, so it is a ProxyInput.
      .run(() =>
        connector.send({
          type: 'proxy.save',
          proxy: body as ProxyInput,
          ...(proxy ? { proxyId: proxy.id } : {}),
        }),
      )
      .then(async (reply) => {
        if (!reply.ok) return;
        await forget();
        onDone(reply.value.id);
      });
  }

  return (
    <EditorForm
      title={proxy ? t('editProxy', proxy.name) : t('newProxy')}
      onSubmit={save}
      onEscape={() => forget().then(() => onDone())}
    >
      <Field
        label={t('pasteProxyUrl')}
        placeholder="user:pass@host:8080"
        hint={t('pasteProxyUrlHint')}
        error={pasted && 'error' in pasted ? pasted.error : undefined}
        value={draft.url}
        onInput={paste}
      />
      <Field
        label={t('proxyName')}
        placeholder={
          draft.host && draft.port ? proxyLabel({ ...draft, port: Number(draft.port) }) : undefined
        }
        error={shown('name')}
        {...bind('name')}
      />
      <div class="bar">
        <Field as="select" label={t('scheme')} error={shown('scheme')} {...bind('scheme')}>
          {PROXY_SCHEMES.map((scheme) => (
            <option key={scheme}>{scheme}</option>
          ))}
        </Field>
        <Field label={t('host')} error={shown('host')} {...bind('host')} />
        <Field label={t('port')} inputMode="numeric" size={6} error={shown('port')} {...bind('port')} />
      </div>
      <Field label={t('username')} autocomplete="off" error={shown('username')} {...bind('username')} />
      <Field
        label={t('password')}
        type="password"
        autocomplete="new-password"
        placeholder={passwordTouched ? '' : t('passwordUnchanged')}
        hint={proxy?.has_password ? t('passwordKeepHint') : undefined}
        error={shown('password')}
        value={draft.password}
        onInput={(event) => {
          setPasswordTouched(true);
          update({ password: event.currentTarget.value });
        }}
      />
      <FormActions busy={task.busy} error={task.error} onCancel={() => forget().then(() => onDone())} />
    </EditorForm>
  );
}
