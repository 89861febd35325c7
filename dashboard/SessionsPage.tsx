import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../lib/api/schemas/sessions';
import { call } from './api';
import { Problem } from './Problem';
import { When } from './When';

/** The account's running sessions, each with Watch (its live view, with control) and a view-only address. */
export function SessionsPage() {
  const [sessions, setSessions] = useState<Session[]>();
  const [problem, setProblem] = useState<string>();
  const load = () =>
    call<{ data: Session[] }>('GET', '/sessions').then(
      ({ data }) => {
        setSessions(data);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);

  return (
    <section class="stack">
      <h1>Sessions</h1>
      <p>
        The browsers running for your profiles now. Watch shows one live in a new tab, where you can click and
        type into it; a view-only address shows it without control, to share.
      </p>
      <div class="bar">
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
      <Problem text={problem} />
      {sessions?.length === 0 && <p>No session is running.</p>}
      {sessions && sessions.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Profile</th>
              <th>Started</th>
              <th>
                <span class="visually-hidden">Live view</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => {
              const name = session.profile_name ?? session.profile_id;
              return (
                <tr key={session.id}>
                  <td>{name}</td>
                  <td>
                    <When iso={session.started_at} />
                  </td>
                  <td class="bar">
                    {session.live_view_url && (
                      <a
                        href={session.live_view_url}
                        target="_blank"
                        rel="noopener"
                        aria-label={`Watch ${name}`}
                      >
                        Watch
                      </a>
                    )}
                    {session.live_view_readonly_url && (
                      <a
                        href={session.live_view_readonly_url}
                        target="_blank"
                        rel="noopener"
                        aria-label={`View-only address of ${name}`}
                      >
                        View only
                      </a>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
