import { useEffect, useState } from 'preact/hooks';
import { mayCall } from '../lib/api/permissions';
import type { Role } from '../lib/api/roles';
import type { DashboardStatus } from '../lib/dashboard/schemas';
import { AccountPage } from './AccountPage';
import { AuditPage } from './AuditPage';
import { call } from './api';
import { BatchesPage } from './BatchesPage';
import { JoinPage } from './JoinPage';
import { KeysPage } from './KeysPage';
import { MembersPage } from './MembersPage';
import { SessionsPage } from './SessionsPage';
import { SignIn } from './SignIn';
import { UsagePage } from './UsagePage';

const PAGES = {
  keys: 'Keys',
  sessions: 'Sessions',
  members: 'Members',
  audit: 'Audit',
  batches: 'Batches',
  usage: 'Usage',
  account: 'Account',
} as const;
type PageName = keyof typeof PAGES;

/**
 * Signed out: sign up or sign in. Signed in: the account's keys, running sessions, usage and settings, one page
 * at a time.
 */
export function App() {
  const [status, setStatus] = useState<DashboardStatus>();
  const [problem, setProblem] = useState<string>();
  const [farewell, setFarewell] = useState<string>();
  /** Why a one-time sign-in link did not sign in. */
  const [linkRefused, setLinkRefused] = useState<string>();
  /** An invitation's token (#/join/<token>), taken out of the address at once. */
  const [invitation, setInvitation] = useState(() => /^#\/join\/(.+)$/.exec(location.hash)?.[1]);
  const page = useHashPage();

  const refresh = () =>
    call<DashboardStatus>('GET', '/status').then(
      (next) => {
        setStatus(next);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => {
    if (invitation) openPage('keys');
    // A one-time sign-in link (#/sign-in/<token>): spent at once, and taken out of the address and the history.
    const token = /^#\/sign-in\/(.+)$/.exec(location.hash)?.[1];
    if (!token) return void refresh();
    openPage('sessions');
    call('POST', '/sign-in/link', { token }).then(refresh, (error: Error) => {
      setLinkRefused(error.message);
      void refresh();
    });
  }, []);

  if (!status)
    return (
      <main class="dashboard">
        {problem ? (
          <p class="problem" role="alert">
            {problem}
          </p>
        ) : (
          <p>Loading…</p>
        )}
      </main>
    );
  if (invitation)
    return (
      <main class="dashboard narrow">
        <h1>Profile Pilot</h1>
        <JoinPage
          token={invitation}
          onDone={() => {
            setInvitation(undefined);
            void refresh();
          }}
        />
      </main>
    );
  if (!status.account)
    return (
      <main class="dashboard narrow">
        <h1>Profile Pilot</h1>
        {farewell && (
          <p role="status" class="ok">
            {farewell}
          </p>
        )}
        {linkRefused && (
          <p role="alert" class="problem">
            {linkRefused}
          </p>
        )}
        <SignIn signup={status.signup} onSignedIn={refresh} />
      </main>
    );

  const signOut = () => call('POST', '/sign-out').then(refresh, (error: Error) => setProblem(error.message));
  return (
    <>
      <header class="dashboard-header">
        <strong>Profile Pilot</strong>
        <nav>
          {(Object.keys(PAGES) as PageName[]).filter(mayOpen(status.account.role)).map((name) => (
            <a key={name} href={`#/${name}`} aria-current={page === name ? 'page' : undefined}>
              {PAGES[name]}
            </a>
          ))}
        </nav>
        <span class="muted grow">
          {status.account.email} · {status.account.role} · {status.account.plan} plan
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main class="dashboard">
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        {page === 'keys' && <KeysPage myRole={status.account.role} />}
        {page === 'sessions' && <SessionsPage />}
        {page === 'members' && <MembersPage myRole={status.account.role} />}
        {page === 'audit' && mayOpen(status.account.role)(page) && <AuditPage />}
        {page === 'batches' && <BatchesPage />}
        {page === 'usage' && <UsagePage />}
        {page === 'account' && (
          <AccountPage
            hasPassword={status.account.has_password}
            onPasswordSet={refresh}
            onDeleted={() => {
              setFarewell('Your account and everything in it were deleted.');
              void refresh();
            }}
          />
        )}
      </main>
    </>
  );
}

/** The pages a role is offered: the audit log is for owners and admins. */
const mayOpen = (role: Role) => (name: PageName) => name !== 'audit' || mayCall(role, 'listAudit');

/** Shows a page and puts it in the address without a new history entry (a hashchange the app follows). */
function openPage(name: PageName): void {
  history.replaceState(null, '', `#/${name}`);
  dispatchEvent(new HashChangeEvent('hashchange'));
}

function useHashPage(): PageName {
  const read = (): PageName => {
    const name = location.hash.replace(/^#\/?/, '');
    return name in PAGES ? (name as PageName) : 'keys';
  };
  const [page, setPage] = useState(read);
  useEffect(() => {
    const follow = () => setPage(read());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return page;
}
