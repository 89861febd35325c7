import { useEffect, useRef, useState } from 'preact/hooks';
import { Confirm } from '../../components/Confirm';
import { useCopy, useItem, useTask } from '../../components/hooks';
import { KeptList } from '../../components/KeptList';
import { Outcome } from '../../components/Outcome';
import { ListState, Problem } from '../../components/Problem';
import { SearchField } from '../../components/SearchField';
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
  const [query, setQuery] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const refresh = () =>
    task.run(() => connector.send({ type: 'sessions.refresh' })).then(() => setNotStopped(null));
  useEffect(() => void refresh(), []);

  const words = query.trim().toLowerCase();
  const shown = sessions
    ?.map((session) => ({ session, name: profileNameOf(session, profiles) }))
    .filter(({ session, name }) =>
      [name, session.current_page?.title, session.current_page?.url].some((text) =>
        text?.toLowerCase().includes(words),
      ),
    );

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
          <span class="grow muted" role="status">
            {t('sessionsCount', sessions.length)}
          </span>
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
      {sessions?.length ? (
        <SearchField
          label={t('searchSessions')}
          hint={t('searchSessionsHint')}
          value={query}
          onInput={setQuery}
        />
      ) : null}
      {shown?.length === 0 && sessions?.length ? <p class="muted">{t('noSessionMatches')}</p> : null}
      <ul class="rows">
        {shown?.map(({ session, name }, index) => (
          <SessionRow key={session.id} session={session} name={name} picture={index < PICTURES} />
        ))}
      </ul>
    </KeptList>
  );
}

/** A small recent picture of the session's page (the service's thumbnail, through the worker). */
function Thumbnail({ sessionId }: { sessionId: string }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    void connector
      .send({ type: 'session.thumbnail', sessionId })
      .then((reply) => reply.ok && setSrc(reply.value));
  }, [sessionId]);
  return src ? <img class="thumb" src={src} alt="" width={64} /> : null;
}

/** Pictures for the first rows only: each is a request of the account's hourly limit. */
const PICTURES = 5;

function SessionRow({ session, name, picture }: { session: Session; name: string; picture: boolean }) {
  const task = useTask();
  const { copied, copy } = useCopy();
  const viewOnly = useCopy();
  const url = session.cdp_url;
  const page = session.current_page;
  const viewOnlyUrl = session.live_view_readonly_url;
  return (
    <li class="row">
      {/* A blank page's picture says nothing: none is asked for. */}
      {picture && session.status === 'running' && page && page.url !== 'about:blank' && (
        <Thumbnail sessionId={session.id} />
      )}
      <div class="grow">
        <strong>{name}</strong>
        <small class="muted">
          {session.status === 'starting' ? t('starting') : t('startedAgo', fromNow(session.started_at))}
          {session.headless ? ` · ${t('headless')}` : ''}
        </small>
        {page && (
          <small class="muted" title={page.url}>
            {t('onPage', page.title || page.url)}
          </small>
        )}
      </div>
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
      {viewOnlyUrl && (
        <button
          type="button"
          aria-label={t(viewOnly.copied ? 'copiedViewOnlyNamed' : 'copyViewOnlyNamed', name)}
          onClick={() => viewOnly.copy(viewOnlyUrl)}
        >
          {t(viewOnly.copied ? 'copied' : 'copyViewOnly')}
        </button>
      )}
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
      {url && (
        <details class="cdp">
          <summary>{t('cdpShow')}</summary>
          <input
            class="address"
            readOnly
            value={url}
            aria-label={t('cdpUrlNamed', name)}
            onFocus={(event) => event.currentTarget.select()}
          />
        </details>
      )}
      <Problem error={task.error} />
    </li>
  );
}
