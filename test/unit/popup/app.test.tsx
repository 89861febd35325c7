// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../entrypoints/popup/App';
import {
  cachedProfiles,
  cachedProxies,
  cachedSessions,
  connection,
  pendingView,
  plan,
  quota,
  watchedRuns,
} from '../../../lib/storage';
import { type Answers, type MockConnector, mockConnector } from './connector-mock';
import {
  fail,
  installPopupBrowser,
  ok,
  profile,
  proxy,
  refreshed,
  session,
  typeInto,
  watched,
} from './harness';

const account = {
  id: 'a',
  name: 'Local',
  plan: 'enterprise',
  hourly_limit: null,
  session_limit: 50,
  key_prefix: 'pp',
  created_at: '',
} as const;
const seen = { limit: null, remaining: null, resetSeconds: null, observedAt: 1 };
const worker: Answers = {
  'profiles.refresh': refreshed(cachedProfiles, profile('prf_1', 'Shop')),
  'proxies.refresh': refreshed(cachedProxies),
  'sessions.refresh': () => ok([]),
  'runs.seen': () => ok(undefined),
  'pendingView.shown': async () => {
    await pendingView.setValue(null);
    return ok(undefined);
  },
  // As the worker does: the key is saved once the service accepted it.
  'connection.save': async ({ serviceUrl, apiKey }) => {
    await connection.setValue({ serviceUrl, apiKey });
    return ok({ account, quota: seen });
  },
};

/** Turned off, by its own `disabled` or a disabled fieldset around it (which happy-dom's `:disabled` misses). */
const off = (control: HTMLElement) =>
  control.matches(':disabled') || control.closest('fieldset[disabled]') !== null;

async function connected() {
  await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_key' });
}

describe('App', () => {
  let stubs: ReturnType<typeof installPopupBrowser>;
  let mock: MockConnector;
  beforeEach(() => {
    location.hash = '';
    stubs = installPopupBrowser();
    mock = mockConnector(worker);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}')),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('starts with the set-up on first open, and moves on once connected, saying to what, with no screen between', async () => {
    render(<App />);
    const url = await screen.findByLabelText<HTMLInputElement>('Service URL');
    expect(url.value).toBe('http://127.0.0.1:8787');
    typeInto(screen.getByLabelText('API key'), 'pp_live_Key00000000000000000000000000000');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Shop')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Connected to Local on the enterprise plan.');
    expect(document.activeElement).toBe(screen.getByRole('status'));
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('shows the views, Profiles first, and the quota left', async () => {
    await connected();
    await quota.setValue({ limit: 100, remaining: 72, resetSeconds: 36, observedAt: 1 });
    render(<App />);
    expect(await screen.findByText('Shop')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Views' });
    expect(nav.textContent).toBe('ProfilesProxiesSessionsAutomationHandoffs');
    expect(screen.getByRole('link', { name: 'Profiles' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('72 of 100 requests left this hour')).toBeTruthy();
  });

  it('has the worker follow the service’s events while it is open with a key, and not without one', async () => {
    const { unmount } = render(<App />);
    await screen.findByLabelText('Service URL');
    expect(mock.followed()).toBe(0);
    unmount();
    await connected();
    render(<App />);
    await waitFor(() => expect(mock.followed()).toBe(1));
  });

  it('says once, in a banner, that the service cannot be reached: no quota, no error per list', async () => {
    await connected();
    await quota.setValue({ limit: null, remaining: null, resetSeconds: null, observedAt: 1 });
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    const unreachable = 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?';
    const down = () => fail('network_error', unreachable);
    mockConnector({ ...worker, 'sessions.refresh': down, 'profiles.refresh': down, 'proxies.refresh': down });
    render(<App />);
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain(unreachable);
    expect(banner.textContent).toContain('npm start');
    await screen.findByText('Shop');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText(/Requests: unlimited|no hourly limit/)).toBeNull();
  });

  it('shows the kept proxies under the banner as stale, since when, their actions off; gone once the service is up', async () => {
    await connected();
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: Date.now() - 5 * 60_000 });
    const down = () =>
      fail('network_error', 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?');
    mockConnector({ ...worker, 'sessions.refresh': down, 'profiles.refresh': down, 'proxies.refresh': down });
    location.hash = '#/proxies';
    const { unmount } = render(<App />);
    await screen.findByText(/cannot be reached/);
    expect(await screen.findByText('Office')).toBeTruthy();
    expect(screen.getByText(/^Fetched 5 minutes ago: the service cannot be reached/).textContent).toContain(
      'what needs the service is off until it answers',
    );
    for (const name of ['Check Office', 'Edit Office', 'Delete Office', 'New proxy'])
      expect(off(screen.getByRole('button', { name })), name).toBe(true);
    expect(off(screen.getByRole('button', { name: 'Try again' }))).toBe(false);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    unmount();
    mockConnector({ ...worker, 'proxies.refresh': refreshed(cachedProxies, proxy('prx_1', 'Office')) });
    render(<App />);
    expect(await screen.findByText('Office')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/^Fetched/)).toBeNull();
    expect(off(screen.getByRole('button', { name: 'Check Office' }))).toBe(false);
  });

  it('shows the kept profiles and sessions offline, stale, with no live Start, Stop or Watch and no endless “Loading more”', async () => {
    await connected();
    await cachedProfiles.setValue({
      data: [profile('prf_1', 'Shop', { status: 'running' }), profile('prf_2', 'Blog')],
      filter: {},
      next_cursor: 'more',
      total: 120,
      savedAt: Date.now() - 2 * 3_600_000,
    });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_1')], savedAt: Date.now() - 2 * 3_600_000 });
    const down = () =>
      fail('network_error', 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?');
    mockConnector({
      ...worker,
      'sessions.refresh': down,
      'profiles.refresh': down,
      'profiles.more': down,
      'proxies.refresh': down,
    });
    render(<App />);
    await screen.findByRole('alert');
    expect(await screen.findByText('Blog')).toBeTruthy();
    expect(await screen.findByText(/^Fetched 2 hours ago/)).toBeTruthy();
    for (const name of ['Stop Shop', 'Start Blog', 'New profile', 'More actions for Blog'])
      expect(off(screen.getByRole('button', { name })), name).toBe(true);
    expect(screen.queryByText('Loading more…')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    location.hash = '#/sessions';
    window.dispatchEvent(new Event('hashchange'));
    await screen.findByRole('button', { name: 'Watch Shop' });
    expect(screen.getByText(/^Fetched 2 hours ago/)).toBeTruthy();
    for (const name of ['Stop Shop', 'Watch Shop', 'Stop all'])
      expect(off(screen.getByRole('button', { name })), name).toBe(true);
  });

  it('has the worker reconcile the sessions as it opens', async () => {
    await connected();
    render(<App />);
    await waitFor(() => expect(mock.sent()).toContainEqual({ type: 'sessions.refresh' }));
  });

  it('switches views by the location hash', async () => {
    await connected();
    render(<App />);
    await screen.findByText('Shop');
    location.hash = '#/proxies';
    window.dispatchEvent(new Event('hashchange'));
    expect(await screen.findByRole('button', { name: 'New proxy' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Proxies' }).getAttribute('aria-current')).toBe('page');
  });

  it('opens the view a notification asked for, once', async () => {
    await connected();
    await pendingView.setValue('#/runs/run_2');
    await watchedRuns.setValue([
      watched({ id: 'run_1', name: 'Newest', status: 'succeeded' }),
      watched({ id: 'run_2', name: 'Asked for', status: 'failed', error: 'Step 1 (goto) failed.' }),
    ]);
    render(<App />);
    window.dispatchEvent(new Event('hashchange'));
    expect(await screen.findByText('Step 1 (goto) failed.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Automation' }).getAttribute('aria-current')).toBe('page');
    await waitFor(async () => expect(await pendingView.getValue()).toBeNull());
    expect(mock.sentOf('pendingView.shown')).toHaveLength(1);
  });

  it('says the key’s workspace and role at its foot, and opens the options page from Settings in its menu', async () => {
    await connected();
    const member = { id: 'mem_1', name: 'Eve' };
    await plan.setValue({
      name: 'free',
      hourlyLimit: 100,
      sessionLimit: 2,
      workspace: 'Shops',
      member,
      role: 'runner',
    });
    render(<App />);
    const workspace = await screen.findByText('Shops · runner');
    expect(workspace.title).toBe('Workspace Shops, as Eve with the role runner');
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    expect(screen.getByText('Keyboard shortcuts')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(stubs.openOptionsPage).toHaveBeenCalled();
  });
});
