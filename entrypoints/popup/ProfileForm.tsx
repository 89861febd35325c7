import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { check, errorAt } from '../../components/form';
import { useDraft, useList, useTask } from '../../components/hooks';
import { ProfileCreate } from '../../lib/api/inputs/profiles';
import { formatProxyUrl, parseProxyUrl, withProxyPassword } from '../../lib/api/proxy-url';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProxies } from '../../lib/storage';

/** The proxy choice that means "type a URL" rather than a saved proxy's id. */
const TYPED = 'url';

/** A new profile: its name, a proxy (saved, typed as a URL, or none) and tags. */
export function ProfileForm({ onDone }: { onDone: () => void }) {
  const { list: proxies } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }), true);
  const { draft, bind, update, forget, lost } = useDraft(
    'profile',
    { name: '', proxyChoice: '', proxyUrl: '', proxyPassword: '', tags: '' },
    ['proxyPassword'],
  );
  const [tried, setTried] = useState(false);
  const task = useTask();
  const tags = draft.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const body: ProfileCreate = {
    name: draft.name,
    ...(draft.proxyChoice === TYPED
      ? { proxy: withProxyPassword(draft.proxyUrl, draft.proxyPassword) }
      : draft.proxyChoice
        ? { proxy_id: draft.proxyChoice }
        : {}),
    ...(tags.length ? { tags } : {}),
  };
  const typedProxy = draft.proxyChoice === TYPED ? parseProxyUrl(draft.proxyUrl) : null;
  const passwordError =
    typedProxy === null
      ? undefined
      : lost.includes('proxyPassword')
        ? t('passwordNotKept')
        : draft.proxyPassword && !('error' in typedProxy) && !typedProxy.username
          ? t('passwordNeedsUser')
          : undefined;
  const local = check(ProfileCreate, body);
  // As the person types, a field with something in it says what is wrong; after Save, every field does.
  const shown = (field: string, typed: string) =>
    errorAt(local, field) && (tried || typed)
      ? errorAt(local, field)
      : errorAt(task.error?.fieldErrors, field);

  /** A typed URL's password goes straight to its own field, which is never kept; the URL shows without it. */
  function typeProxyUrl(url: string) {
    const parts = parseProxyUrl(url);
    if ('error' in parts || parts.password === null) return update({ proxyUrl: url });
    update({ proxyUrl: formatProxyUrl(parts), proxyPassword: parts.password });
  }

  function save(event: Event) {
    event.preventDefault();
    setTried(true);
    if (local.length || passwordError) return;
    task
      .run(() => connector.send({ type: 'profile.create', profile: body }))
      .then(async (reply) => {
        if (!reply.ok) return;
        await forget();
        onDone();
      });
  }

  return (
    <form class="stack" onSubmit={save} noValidate>
      <h2>{t('newProfile')}</h2>
      <Field label={t('profileName')} error={shown('name', draft.name)} {...bind('name')} />
      <Field as="select" label={t('proxy')} {...bind('proxyChoice')}>
        <option value="">{t('noProxy')}</option>
        {proxies?.map((proxy) => (
          <option key={proxy.id} value={proxy.id}>
            {proxy.name}
          </option>
        ))}
        <option value={TYPED}>{t('typeProxyUrl')}</option>
      </Field>
      {draft.proxyChoice === TYPED && (
        <Field
          label={t('proxyUrl')}
          placeholder="socks5://user:pass@host:1080"
          error={shown('proxy', draft.proxyUrl)}
          value={draft.proxyUrl}
          onInput={(event) => typeProxyUrl(event.currentTarget.value)}
        />
      )}
      {draft.proxyChoice === TYPED && (
        <Field
          label={t('proxyPassword')}
          type="password"
          autocomplete="new-password"
          error={passwordError}
          {...bind('proxyPassword')}
        />
      )}
      <Field label={t('tags')} hint={t('tagsHint')} error={shown('tags', draft.tags)} {...bind('tags')} />
      <FormActions busy={task.busy} error={task.error} onCancel={() => forget().then(onDone)} />
    </form>
  );
}
