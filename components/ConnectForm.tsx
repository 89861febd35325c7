import { useEffect, useRef, useState } from 'preact/hooks';
import { isWellFormedKey } from '../lib/api/key-shape';
import type { Account } from '../lib/api/schemas/account';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { failure } from '../lib/messaging/protocol';
import {
  releaseServiceAccess,
  requestServiceAccess,
  servicePermissionPattern,
} from '../lib/permissions/service-access';
import { connection, DEFAULT_SERVICE_URL } from '../lib/storage';
import { Field } from './Field';
import { useDraft, useTask } from './hooks';
import { Problem } from './Problem';
import { quotaText } from './quota';

interface ConnectFormProps {
  serviceUrl: string;
  /** The address and key go to the worker, which saves them once the service accepts the key. */
  onConnecting?: () => void;
  /** The service accepted the key: the form's work is done; `connected` says to what, to show where it goes. */
  onDone: (connected: string) => void;
  /** The quota is shown elsewhere on the page (the popup's foot): the sentence leaves it out. */
  quotaApart?: boolean;
  /** The key in use: left empty, the key field keeps it (a new address for the same key). */
  keptKey?: string | null;
}

/** How long the set-up waits for a local service before it leaves the address for the person to type. */
const LOCAL_PROBE_MS = 1_500;

/** Service URL and API key, checked by the worker with one real request before it saves them. */
export function ConnectForm({ serviceUrl, onConnecting, onDone, quotaApart, keptKey }: ConnectFormProps) {
  const { draft, bind, update, forget } = useDraft('connect', { serviceUrl, apiKey: '' });
  const latest = useRef(draft);
  latest.current = draft;
  // The local address is offered only when a service answers there; otherwise the field waits for the person's.
  useEffect(() => {
    if (keptKey || serviceUrl !== DEFAULT_SERVICE_URL) return;
    fetch(`${DEFAULT_SERVICE_URL}/healthz`, { signal: AbortSignal.timeout(LOCAL_PROBE_MS) }).catch(() => {
      if (latest.current.serviceUrl === DEFAULT_SERVICE_URL) update({ serviceUrl: '' });
    });
  }, []);
  const [tried, setTried] = useState(false);
  /** The address and key the shown failure is about: it goes once either is changed. */
  const [asked, setAsked] = useState('');
  const task = useTask();
  const url = draft.serviceUrl.trim().replace(/\/+$/, '');
  const apiKey = draft.apiKey.trim() || keptKey || '';
  const urlError = servicePermissionPattern(url) ? undefined : t('serviceUrlInvalid');
  const keyError = !apiKey ? t('apiKeyMissing') : isWellFormedKey(apiKey) ? undefined : t('apiKeyMalformed');

  function connect(event: Event) {
    event.preventDefault();
    setTried(true);
    if (urlError || keyError || task.busy) return;
    // What was said of the address and key connected with last time: not of these.
    setAsked(`${url} ${apiKey}`);
    // Asked before any await: browsers only show the permission prompt during the click.
    const access = requestServiceAccess(url).catch(() => false);
    // Read before the worker saves the new address: the old one's access is given back once it is replaced.
    const previous = connection.getValue();
    onConnecting?.();
    task
      .run(async () =>
        (await access)
          ? connector.send({ type: 'connection.save', serviceUrl: url, apiKey })
          : failure('no_access', t('accessDenied', new URL(url).host)),
      )
      .then(async (reply) => {
        if (!reply.ok) return;
        const { account, quota: seen } = reply.value;
        await Promise.all([
          releaseServiceAccess((await previous).serviceUrl, url).catch(() => undefined),
          forget(),
        ]);
        onDone(describe(account, seen && !quotaApart ? quotaText(seen) : ''));
      });
  }

  return (
    <form class="stack" onSubmit={connect} noValidate>
      <p>{t('connectIntro')}</p>
      <Field
        label={t('serviceUrl')}
        type="url"
        placeholder="https://pilot.example.com"
        error={tried ? urlError : undefined}
        {...bind('serviceUrl')}
      />
      <Field
        label={t('apiKey')}
        type="password"
        autocomplete="off"
        hint={keptKey ? t('apiKeyKeptHint') : undefined}
        error={tried ? keyError : undefined}
        {...bind('apiKey')}
      />
      {!urlError && (
        <p>
          <a href={`${url}/dashboard`} target="_blank" rel="noreferrer">
            {t('getApiKey')}
          </a>
        </p>
      )}
      <Problem error={asked === `${url} ${apiKey}` ? task.error : null} />
      {/* Busy, it keeps the focus: a disabled button would drop it to the page. */}
      <button type="submit" aria-disabled={task.busy}>
        {task.busy ? t('connecting') : t('connect')}
      </button>
    </form>
  );
}

function describe(account: Account, quotaLine: string): string {
  return `${t('connectedAs', account.name, account.plan)} ${quotaLine}`.trim();
}
