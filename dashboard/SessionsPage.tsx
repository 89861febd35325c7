import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../lib/api/schemas/sessions';
import { call } from './api';
import { ListHead } from './ListHead';
import { Problem } from './Problem';
import { useLoaded } from './use-loaded';
import { When } from './When';

/**
 * The account's running sessions: what each is doing (its page and a small picture), with search, Watch (its
 * live view, with control), Copy view-only link, Stop, and Stop all once confirmed.
 */
export function SessionsPage() {
  const { data, problem, setProblem, load } = useLoaded<{ data: Session[] }>('/sessions');
  const sessions = data?.data;
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState(false);

  const stop = (ids: string[]) =>
    Promise.all(ids.map((id) => call('POST', `/sessions/${id}/stop`)))
      .catch((error: Error) => setProblem(error.message))
      .then(load);

  const words = query.trim().toLowerCase();
  const shown = sessions?.filter((session) =>
    [session.profile_name, session.current_page?.title, session.current_page?.url].some((text) =>
      text?.toLowerCase().includes(words),
    ),
  );

  return (
    <section class="stack">
      <h1>Sessions</h1>
      <p>
        The browsers running for your profiles now, and the page each is on. Watch shows one live in a new
        tab, where you can click and type into it; a view-only link shows it without control, to share.
      </p>
      <div class="bar">
        <input
          type="search"
          aria-label="Search sessions"
          placeholder="Profile, page title or address"
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
        <button type="button" onClick={load}>
          Refresh
        </button>
        {sessions && sessions.length > 0 && (
          <button type="button" class="danger" aria-expanded={confirming} onClick={() => setConfirming(true)}>
            Stop all
          </button>
        )}
      </div>
      {confirming && sessions && (
        <div class="bar confirm">
          <span>
            Stop all {sessions.length} running session{sessions.length === 1 ? '' : 's'}? Their browsers
            close.
          </span>
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirming(false);
              void stop(sessions.map((session) => session.id));
            }}
          >
            Stop {sessions.length}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <Problem text={problem} />
      {sessions?.length === 0 && <p>No session is running.</p>}
      {shown?.length === 0 && sessions?.length ? <p>No running session matches.</p> : null}
      {shown && shown.length > 0 && (
        <table>
          <ListHead columns={['Profile', 'Page', 'Started']} actions />
          <tbody>
            {shown.map((session) => (
              <SessionRow key={session.id} session={session} stop={() => stop([session.id])} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SessionRow({ session, stop }: { session: Session; stop: () => void }) {
  const name = session.profile_name ?? session.profile_id;
  const page = session.current_page;
  const [picture, setPicture] = useState<string>();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    call<{ image: string }>('GET', `/sessions/${session.id}/thumbnail`).then(
      ({ image }) => setPicture(image),
      () => setPicture(undefined),
    );
  }, [session.id]);
  const viewOnly = session.live_view_readonly_url;
  const copy = (link: string) =>
    void navigator.clipboard.writeText(link).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    });
  return (
    <tr>
      <td>{name}</td>
      <td class="page">
        {picture && <img class="thumb" src={picture} alt="" width={96} />}
        {page && (
          <span title={page.url}>
            {page.title || page.url}
            <small>{page.url}</small>
          </span>
        )}
      </td>
      <td>
        <When iso={session.started_at} />
      </td>
      <td class="bar">
        {session.live_view_url && (
          <a href={session.live_view_url} target="_blank" rel="noopener" aria-label={`Watch ${name}`}>
            Watch
          </a>
        )}
        {viewOnly && (
          <button
            type="button"
            aria-label={copied ? `Copied the view-only link of ${name}` : `Copy view-only link of ${name}`}
            onClick={() => copy(viewOnly)}
          >
            {copied ? 'Copied' : 'Copy view-only link'}
          </button>
        )}
        <button type="button" aria-label={`Stop ${name}`} onClick={stop}>
          Stop
        </button>
      </td>
    </tr>
  );
}
