// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../entrypoints/popup/App';
import {
  cachedProfiles,
  cachedProxies,
  connection,
  pendingView,
  quota,
  watchedRuns,
} from '../../../lib/storage';
import { type Answers, type MockConnector, mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok, profile, proxy, refreshed, typeInto, watched } from './harness';

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
    expect(screen.getByRole('status').textContent).toBe(
      'Connected to Local on the enterprise plan. Requests: unlimited',
    );
    expect(document.activeElement).toBe(screen.getByRole('status'));
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('shows the views, Profiles first, and the quota left', async () => {
    await connected();
    await quota.setValue({ limit: 100, remaining: 72, resetSeconds: 36, observedAt: 1 });
    render(<App />);
    expect(await screen.findByText('Shop')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Views' });
    expect(nav.textContent).toBe('ProfilesProxiesSessionsAutomationRequests');
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

  it('says once, in a banner, that the service cannot be reached: no quota, no stale rows, no error per list', async () => {
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
    await waitFor(() => expect(screen.queryByText('Shop')).toBeNull());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText(/Requests: unlimited|no hourly limit/)).toBeNull();
  });

  it('shows no stale proxies under the banner, and its error is gone once the popup reopens to a service up', async () => {
    await connected();
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    const down = () =>
      fail('network_error', 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?');
    mockConnector({ ...worker, 'sessions.refresh': down, 'profiles.refresh': down, 'proxies.refresh': down });
    location.hash = '#/proxies';
    const { unmount } = render(<App />);
    await screen.findByText(/cannot be reached/);
    // The cached list is read by now (the refresh that failed came after it): its rows must stay hidden.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Office')).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    unmount();
    mockConnector({ ...worker, 'proxies.refresh': refreshed(cachedProxies, proxy('prx_1', 'Office')) });
    render(<App />);
    expect(await screen.findByText('Office')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
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

  it('shows the settings at #/settings', async () => {
    await connected();
    location.hash = '#/settings';
    render(<App />);
    expect(await screen.findByRole('button', { name: 'Forget key' })).toBeTruthy();
  });

  it('opens the options page from the Settings button', async () => {
    await connected();
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(stubs.openOptionsPage).toHaveBeenCalled();
  });
});
