import { useState } from 'preact/hooks';
import { EditorForm } from '../../components/EditorForm';
import { Field } from '../../components/Field';
import { FormActions } from '../../components/FormActions';
import { check, errorAt } from '../../components/form';
import { useDraft, useList, useTask } from '../../components/hooks';
import { IdentitySummary } from '../../components/IdentitySummary';
import { Problem } from '../../components/Problem';
import { proxyCheckText } from '../../components/proxy-check';
import { ProfileCreate, ProfileUpdate } from '../../lib/api/inputs/profiles';
import { formatProxyUrl, parseProxyUrl } from '../../lib/api/proxy-url';
import type { Profile } from '../../lib/api/schemas/profiles';
import { type MessageName, t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { cachedProxies } from '../../lib/storage';
import { CookieTools } from './CookieTools';
import { FINGERPRINT_PRESETS, fingerprintOf, type PresetName, presetFields } from './fingerprint-presets';
import {
  initialFields,
  matchesSavedProxy,
  passwordProblem,
  profileBody,
  proxyChoices,
  TYPED,
} from './profile-form-rules';

/**
 * A new profile, or a saved one to change: its name, a proxy (saved, typed as a URL, or none), tags, notes and
 * one Identity section (the saved identity with New identity and Check identity, then explicit values, with presets). Editing sends only what changed, so an untouched proxy keeps its password.
 */
export function ProfileForm({
  profile,
  onDone,
}: {
  profile?: Profile | undefined;
  /** The form closed; with the id of the profile saved, if it was. */
  onDone: (savedId?: string) => void;
}) {
  const { list: proxies } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }), true);
  const initial = initialFields(profile);
  const { draft, bind, update, forget, lost } = useDraft(`profile:${profile?.id ?? 'new'}`, initial, [
    'proxyPassword',
  ]);
  const [tried, setTried] = useState(false);
  const [notice, setNotice] = useState('');
  const task = useTask();
  const matching = useTask();
  const [matched, setMatched] = useState('');
  const body = profileBody(draft, profile);
  const passwordError = passwordProblem(draft, lost);
  const local = check(profile ? ProfileUpdate : ProfileCreate, body);
  // As the person types, a field with something in it says what is wrong; after Save, every field does.
  const shown = (field: string, typed: string) =>
    errorAt(local, field) && (tried || typed)
      ? errorAt(local, field)
      : errorAt(task.error?.fieldErrors, field);
  /** A field bound to the draft, with what is wrong at `path` of the body under it. */
  const checked = (name: Parameters<typeof bind>[0], path: string) => ({
    ...bind(name),
    error: shown(path, draft[name]),
  });

  /** A typed URL's password goes straight to its own field, which is never kept; the URL shows without it. */
  function typeProxyUrl(url: string) {
    const parts = parseProxyUrl(url);
    if ('error' in parts || parts.password === null) return update({ proxyUrl: url });
    update({ proxyUrl: formatProxyUrl(parts), proxyPassword: parts.password });
  }

  /** The time zone of the saved proxy's exit IP, as the service's check finds it. */
  async function matchProxy() {
    setMatched('');
    const reply = await matching.run(() =>
      connector.send({ type: 'proxy.check', proxyId: draft.proxyChoice }),
    );
    if (!reply.ok) return;
    const check = reply.value;
    if (check.ok && check.timezone) update({ timezone: check.timezone });
    setMatched(check.ok && !check.timezone ? t('proxyZoneUnknown') : proxyCheckText(check));
  }

  function save(event: Event) {
    event.preventDefault();
    setTried(true);
    if (local.length || passwordError || task.busy) return;
    task
      .run(() =>
        profile
          ? connector.send({ type: 'profile.update', profileId: profile.id, changes: body as ProfileUpdate })
          : connector.send({ type: 'profile.create', profile: body as ProfileCreate }),
      )
      .then(async (reply) => {
        if (!reply.ok) return;
        await forget();
        if ('applies_at_next_start' in reply.value && reply.value.applies_at_next_start)
          return setNotice(t('appliesAtNextStart', reply.value.name));
        onDone(reply.value.id);
      });
  }

  if (notice)
    return (
      <section class="stack">
        <p role="status">{notice}</p>
        {/* biome-ignore lint/a11y/noAutofocus: the result of Save, which had the focus */}
        <button type="button" autoFocus onClick={() => onDone(profile?.id)}>
          {t('continue')}
        </button>
      </section>
    );
  return (
    <EditorForm
      title={profile ? t('editProfile', profile.name) : t('newProfile')}
      onSubmit={save}
      onEscape={() => forget().then(() => onDone())}
    >
      <Field label={t('profileName')} {...checked('name', 'name')} />
      <Field as="select" label={t('proxy')} {...bind('proxyChoice')}>
        <option value="">{t('noProxy')}</option>
        {proxyChoices(proxies, profile).map((proxy) => (
          <option key={proxy.id} value={proxy.id}>
            {proxy.name}
          </option>
        ))}
        <option value={TYPED}>{t('typeProxyUrl')}</option>
      </Field>
      {draft.proxyChoice === TYPED && (
        <>
          <Field
            label={t('proxyUrl')}
            placeholder="socks5://user:pass@host:1080"
            error={shown('proxy', draft.proxyUrl)}
            value={draft.proxyUrl}
            onInput={(event) => typeProxyUrl(event.currentTarget.value)}
          />
          <Field
            label={t('proxyPassword')}
            type="password"
            autocomplete="new-password"
            hint={profile?.proxy && !profile.proxy_id ? t('proxyPasswordKeptHint') : undefined}
            error={passwordError && t(passwordError)}
            {...bind('proxyPassword')}
          />
        </>
      )}
      <Field label={t('tags')} hint={t('tagsHint')} {...checked('tags', 'tags')} />
      <Field as="textarea" rows={2} label={t('notes')} {...checked('notes', 'notes')} />
      <details open={profile !== undefined || Object.keys(fingerprintOf(draft)).length > 0}>
        <summary>{t('identity')}</summary>
        <div class="stack">
          {profile && <IdentitySummary profile={profile} />}
          <p>{t('identityExplicit')}</p>
          <Field
            as="select"
            label={t('fingerprintPreset')}
            value=""
            onInput={(event) => {
              const name = event.currentTarget.value as PresetName;
              if (name in FINGERPRINT_PRESETS) update(presetFields(name));
            }}
          >
            <option value="">{t('choosePreset')}</option>
            {Object.keys(FINGERPRINT_PRESETS).map((name) => (
              <option key={name} value={name}>
                {t(name as MessageName)}
              </option>
            ))}
          </Field>
          <Field
            label={t('userAgent')}
            hint={t('userAgentHint')}
            {...checked('userAgent', 'fingerprint.user_agent')}
          />
          <div class="bar">
            <Field
              label={t('language')}
              placeholder="en-US"
              {...checked('language', 'fingerprint.language')}
            />
            <Field
              label={t('timezone')}
              placeholder="Europe/Berlin"
              {...checked('timezone', 'fingerprint.timezone')}
            />
          </div>
          <button type="button" disabled={matching.busy || !matchesSavedProxy(draft)} onClick={matchProxy}>
            {t('matchProxy')}
          </button>
          {matched && <p role="status">{matched}</p>}
          <Problem error={matching.error} />
          <div class="bar">
            <Field label={t('screenWidth')} inputMode="numeric" {...checked('width', 'fingerprint.screen')} />
            <Field label={t('screenHeight')} inputMode="numeric" {...bind('height')} />
          </div>
        </div>
      </details>
      {profile && <CookieTools profileId={profile.id} profileName={profile.name} />}
      <FormActions busy={task.busy} error={task.error} onCancel={() => forget().then(() => onDone())} />
    </EditorForm>
  );
}
