import { useEffect, useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useCopy, useItem, useTask } from '../../components/hooks';
import { KeptList } from '../../components/KeptList';
import { Outcome } from '../../components/Outcome';
import { ListState, Problem } from '../../components/Problem';
import type { Session } from '../../lib/api/schemas/sessions';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { profileNameOf } from '../../lib/profile-name';
import { cachedProfiles, cachedSessions } from '../../lib/storage';
import { fromNow } from '../../lib/when';
import { WatchButton } from './WatchButton';

function openProfiles() {
  location.hash = '#/profiles';
}

/** The running sessions, with their CDP address to copy, Watch, Stop, and Stop all. */
export function Sessions() {
  const cached = useItem(cachedSessions);
  const sessions = cached?.data;
  const profiles = useItem(cachedProfiles)?.data;
  const task = useTask();
  const [notStopped, setNotStopped] = useState<string | null>(null);
  /** Stop all asks first, as Start and Delete do; then says what it did. */
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const refresh = () =>
    task.run(() => connector.send({ type: 'sessions.refresh' })).then(() => setNotStopped(null));
  useEffect(() => void refresh(), []);

  function stopAll() {
    setOutcome('');
    task
      .run(() => connector.send({ type: 'session.stopAll' }))
      .then((reply) => {
        setAsking(false);
        if (!reply.ok) return;
        const { stopped, failed } = reply.value;
        setNotStopped(failed.length ? t('someNotStopped', failed.length, failed[0]?.message ?? '') : null);
        if (stopped.length) setOutcome(t('sessionsStopped', stopped.length));
      });
  }

  return (
    <KeptList savedAt={cached?.savedAt}>
      {/* Nothing to stop: no button that can only be disabled. */}
      {sessions?.length ? (
        <div class="bar">
          <button type="button" ref={opener} disabled={task.busy || asking} onClick={() => setAsking(true)}>
            {t('stopAll')}
          </button>
        </div>
      ) : null}
      {asking && sessions?.length ? (
        <Confirm
          question={t('stopAllQuestion', sessions.length)}
          action={t('stopAllAction', sessions.length)}
          busy={task.busy}
          destructive
          onConfirm={stopAll}
          onCancel={() => {
            setAsking(false);
            opener.current?.focus();
          }}
        />
      ) : null}
      {outcome && <Outcome text={outcome} />}
      <Problem error={task.error ?? (notStopped ? { message: notStopped } : null)} retry={refresh} />
      <ListState
        list={sessions}
        busy={task.busy}
        loading={t('loadingSessions')}
        empty={t('noSessions')}
        action={{ label: t('openProfiles'), run: openProfiles }}
      />
      <ul class="rows">
        {sessions?.map((session) => (
          <SessionRow key={session.id} session={session} name={profileNameOf(session, profiles)} />
        ))}
      </ul>
    </KeptList>
  );
}

function SessionRow({ session, name }: { session: Session; name: string }) {
  const task = useTask();
  const { copied, copy } = useCopy();
  const url = session.cdp_url;
  return (
    <li class="row">
      <div class="grow">
        <strong>{name}</strong>
        <small class="muted">
          {session.status === 'starting' ? t('starting') : t('startedAgo', fromNow(session.started_at))}
          {session.headless ? ` · ${t('headless')}` : ''}
        </small>
      </div>
      {url && (
        <input
          class="address"
          readOnly
          value={url}
          aria-label={t('cdpUrlNamed', name)}
          onFocus={(event) => event.currentTarget.select()}
        />
      )}
      {url && (
        <button
          type="button"
          aria-label={t(copied ? 'copiedNamed' : 'copyCdpNamed', name)}
          onClick={() => copy(url)}
        >
          {t(copied ? 'copied' : 'copyCdp')}
        </button>
      )}
      {session.status === 'running' && <WatchButton sessionId={session.id} name={name} />}
      <button
        type="button"
        disabled={task.busy}
        aria-label={t('stopNamed', name)}
        onClick={() =>
          task.run(() => connector.send({ type: 'session.stop', profileId: session.profile_id }))
        }
      >
        {t('stop')}
      </button>
      <Problem error={task.error} />
    </li>
  );
}
