// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Profiles } from '../../../entrypoints/popup/Profiles';
import type { Profile } from '../../../lib/api/schemas/profiles';
import {
  cachedProfiles,
  cachedProxies,
  cachedSessions,
  cachedTags,
  waitingStarts,
} from '../../../lib/storage';
import { type IntentOf, mockConnector } from './connector-mock';
import {
  fail,
  installPopupBrowser,
  later,
  ok,
  profile,
  proxy,
  refreshed,
  session,
  typeInto,
} from './harness';

const shop = profile('prf_1', 'Shop', { proxy_id: 'prx_1', proxy: 'http://10.0.0.1:3128' });
const research = profile('prf_2', 'Research', { proxy: 'socks5://u@127.0.0.1:1080' });
const mail = profile('prf_3', 'Mail');
const listed = (...profiles: Profile[]) => refreshed(cachedProfiles, ...profiles);
/** As the worker answers a deletion: the profile is gone from the cached list. */
async function deleted({ profileId }: { profileId: string }) {
  const cached = await cachedProfiles.getValue();
  await cachedProfiles.setValue(cached && { ...cached, data: cached.data.filter((p) => p.id !== profileId) });
  return ok(undefined);
}
/** As the worker answers a search: the profiles whose name or tags hold `q`, with the tag and status asked. */
function searched(...profiles: Profile[]) {
  return async ({ filter = {} }: IntentOf<'profiles.refresh'>) => {
    const q = filter.q?.trim().toLowerCase() ?? '';
    const data = profiles.filter(
      (p) =>
        [p.name, ...p.tags].some((text) => text.toLowerCase().includes(q)) &&
        (!filter.tag || p.tags.includes(filter.tag)) &&
        (!filter.status || p.status === filter.status),
    );
    await cachedProfiles.setValue({ data, filter, next_cursor: null, total: data.length, savedAt: 1 });
    return ok(undefined);
  };
}
const row = (name: string) => screen.getByText(name).closest('li') as HTMLElement;

describe('Profiles', () => {
  afterEach(cleanup);

  it('says it is loading while the first list is on its way', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': () => undefined });
    render(<Profiles />);
    expect(await screen.findByText('Loading profiles…')).toBeTruthy();
  });

  it('says what to do when there are no profiles, with the button that does it', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': listed(), 'proxies.refresh': refreshed(cachedProxies) });
    render(<Profiles />);
    expect(await screen.findByText(/^No profiles yet: a profile is a browser of its own/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create the first profile' }));
    expect(await screen.findByRole('form', { name: 'New profile' })).toBeTruthy();
  });

  it('draws the last known list at once and refreshes it behind', async () => {
    const list1 = later();
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': () => list1.reply });
    await cachedProfiles.setValue({ data: [shop], savedAt: 1 });
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    render(<Profiles />);
    expect(await screen.findByText('Shop')).toBeTruthy();
    expect(within(row('Shop')).getByText(/ · Office$/)).toBeTruthy();
    await listed(shop, research, mail)();
    list1.give(ok(undefined));
    expect(await screen.findByText('Research')).toBeTruthy();
    // The host of a proxy of its own, without its scheme or user name.
    expect(within(row('Research')).getByText('Never used · 127.0.0.1:1080')).toBeTruthy();
    expect(within(row('Mail')).getByText(/ · No proxy$/)).toBeTruthy();
    expect((await cachedProfiles.getValue())?.data.map((p) => p.name)).toEqual(['Shop', 'Research', 'Mail']);
  });

  it('names a profile’s saved proxy, listing the proxies once if they never were', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'profiles.refresh': listed(shop),
      'proxies.refresh': refreshed(cachedProxies, proxy('prx_1', 'Office')),
    });
    render(<Profiles />);
    expect(await screen.findByText(/ · Office$/)).toBeTruthy();
    cleanup();
    render(<Profiles />);
    await screen.findByText(/ · Office$/);
    expect(mock.sentOf('proxies.refresh')).toHaveLength(1);
  });

  it('shows a failure as a sentence with a Retry that tries again', async () => {
    let attempts = 0;
    installPopupBrowser();
    mockConnector({
      'profiles.refresh': () =>
        ++attempts === 1
          ? fail('network_error', 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?')
          : listed(shop)(),
    });
    render(<Profiles />);
    expect((await screen.findByRole('alert')).textContent).toContain('cannot be reached. Is it running?');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Shop')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a 429 says how long to wait', async () => {
    installPopupBrowser();
    mockConnector({
      'profiles.refresh': () =>
        fail('rate_limited', 'The hourly request limit is used up. Try again in 2 minutes.', {
          status: 429,
          retryAfter: 120,
        }),
    });
    render(<Profiles />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Try again in 2 minutes.');
    expect(within(alert).getByRole<HTMLButtonElement>('button', { name: 'Retry' }).disabled).toBe(true);
  });

  it('searches names and tags on the service as one types, and says how many match', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'profiles.refresh': searched(shop, research, mail) });
    render(<Profiles />);
    await screen.findByText('Mail');
    expect(screen.getByRole('status').textContent).toBe('3 profiles');
    typeInto(screen.getByLabelText('Search profiles'), 'SEA');
    await waitFor(() => expect(screen.queryByText('Shop')).toBeNull());
    expect(screen.getByText('Research')).toBeTruthy();
    expect(mock.sentOf('profiles.refresh')).toEqual([
      { type: 'profiles.refresh' },
      { type: 'profiles.refresh', filter: { q: 'SEA' } },
    ]);
    typeInto(screen.getByLabelText('Search profiles'), 'nothing like it');
    expect(await screen.findByText('No profile has that in its name, tags, notes or proxy.')).toBeTruthy();
  });

  it('narrows to a tag from a row and to a status, and widens again', async () => {
    installPopupBrowser();
    const eu = profile('prf_5', 'Berlin', { tags: ['eu', 'retail'] });
    const tags = refreshed(cachedTags, { tag: 'eu', count: 1 }, { tag: 'retail', count: 1 });
    const mock = mockConnector({ 'profiles.refresh': searched(shop, eu), 'profiles.tags': tags });
    render(<Profiles />);
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Berlin' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show profiles tagged eu' }));
    await waitFor(() => expect(screen.queryByText('Shop')).toBeNull());
    const chip = (name: string) =>
      within(screen.getByRole('group', { name: 'Show only a tag' })).getByRole('button', { name });
    await waitFor(() => expect(chip('#eu').getAttribute('aria-pressed')).toBe('true'));
    expect(chip('#retail').getAttribute('aria-pressed')).toBe('false');
    typeInto(screen.getByLabelText('Status'), 'idle');
    await waitFor(() =>
      expect(mock.sentOf('profiles.refresh').at(-1)).toEqual({
        type: 'profiles.refresh',
        filter: { tag: 'eu', status: 'idle' },
      }),
    );
    fireEvent.click(chip('#eu'));
    expect(await screen.findByText('Shop')).toBeTruthy();
    expect(mock.sentOf('profiles.refresh').at(-1)).toEqual({
      type: 'profiles.refresh',
      filter: { status: 'idle' },
    });
  });

  it('offers every profile’s tags as chips, most used first with their counts, the one in force first and pressed; sorts on the service', async () => {
    installPopupBrowser();
    const eu = profile('prf_5', 'Berlin', { tags: ['eu', 'retail'] });
    const us = profile('prf_6', 'Austin', { tags: ['us'] });
    // The account's tags, as the service counts them: some on profiles past the loaded page.
    const tags = refreshed(
      cachedTags,
      { tag: 'vip', count: 40 },
      { tag: 'eu', count: 12 },
      { tag: 'us', count: 3 },
      { tag: 'retail', count: 1 },
    );
    const mock = mockConnector({ 'profiles.refresh': searched(shop, eu, us), 'profiles.tags': tags });
    render(<Profiles />);
    const chips = within(await screen.findByRole('group', { name: 'Show only a tag' }));
    const shown = () =>
      chips
        .getAllByRole('button')
        .map((button) => [button.textContent, button.title, button.getAttribute('aria-pressed')]);
    await waitFor(() => expect(chips.getAllByRole('button')).toHaveLength(4));
    expect(shown()).toEqual([
      ['#vip', 'Profiles with this tag: 40', 'false'],
      ['#eu', 'Profiles with this tag: 12', 'false'],
      ['#us', 'Profiles with this tag: 3', 'false'],
      ['#retail', 'Profiles with this tag: 1', 'false'],
    ]);
    expect(mock.sentOf('profiles.tags')).toHaveLength(1);
    fireEvent.click(chips.getByRole('button', { name: '#us' }));
    await waitFor(() => expect(screen.queryByText('Berlin')).toBeNull());
    expect(shown()[0]).toEqual(['#us', 'Profiles with this tag: 3', 'true']);
    typeInto(screen.getByLabelText('Sort'), 'name');
    await waitFor(() =>
      expect(mock.sentOf('profiles.refresh').at(-1)).toEqual({
        type: 'profiles.refresh',
        filter: { tag: 'us', sort: 'name' },
      }),
    );
    expect(
      [...(screen.getByLabelText('Sort') as HTMLSelectElement).options].map((option) => option.textContent),
    ).toEqual(['Newest first', 'Name', 'Last used', 'Running first']);
    typeInto(screen.getByLabelText('Sort'), 'created');
    await waitFor(() =>
      expect(mock.sentOf('profiles.refresh').at(-1)).toEqual({
        type: 'profiles.refresh',
        filter: { tag: 'us' },
      }),
    );
  });

  it('opens with the focus in the search, and / brings it back from elsewhere but not from a field', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': searched(shop, mail) });
    render(<Profiles />);
    const search = screen.getByLabelText('Search profiles');
    expect(document.activeElement).toBe(search);
    const newProfile = screen.getByRole('button', { name: 'New profile' });
    newProfile.focus();
    expect(fireEvent.keyDown(newProfile, { key: '/' })).toBe(false);
    expect(document.activeElement).toBe(search);
    const status = screen.getByLabelText('Status');
    status.focus();
    expect(fireEvent.keyDown(status, { key: '/' })).toBe(true);
    expect(document.activeElement).toBe(status);
  });

  it('leaves the focus to the profile a notification named', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': searched(shop, mail) });
    render(<Profiles focus="prf_1" />);
    expect(document.activeElement).not.toBe(screen.getByLabelText('Search profiles'));
  });

  it('reads the next page when asked, and says how many of how many are shown', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'profiles.refresh': async () => {
        await cachedProfiles.setValue({ data: [shop], filter: {}, next_cursor: 'c2', total: 3, savedAt: 1 });
        return ok(undefined);
      },
      'profiles.more': async () => {
        const listed = await cachedProfiles.getValue();
        await cachedProfiles.setValue({
          ...listed,
          data: [shop, research, mail],
          next_cursor: null,
          savedAt: 1,
        });
        return ok(undefined);
      },
    });
    render(<Profiles />);
    expect(await screen.findByText('1 of 3 profiles')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('3 profiles')).toBeTruthy();
    expect(screen.getByText('Mail')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(mock.sentOf('profiles.more')).toHaveLength(1);
  });

  it('starts and stops a session from the row through the worker', async () => {
    const running = profile('prf_4', 'Running', { status: 'running', session_id: 'ses_1' });
    installPopupBrowser();
    const mock = mockConnector({
      'profiles.refresh': listed(shop, running),
      'session.start': () => ok(session('ses_2', 'prf_1')),
      'session.stop': () => ok(session('ses_1', 'prf_4', { status: 'stopped' })),
    });
    render(<Profiles />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start Shop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop Running' }));
    await waitFor(() => expect(mock.sentOf('session.stop')).toHaveLength(1));
    expect(mock.sent()).toContainEqual({ type: 'session.start', profileId: 'prf_1' });
    expect(mock.sent()).toContainEqual({ type: 'session.stop', profileId: 'prf_4' });
  });

  it('says a profile whose start waits in line for a free browser is waiting, and running once it starts', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': listed(shop, mail) });
    await waitingStarts.setValue({ prf_1: '2025-01-06T09:00:00.000Z' });
    render(<Profiles />);
    const waiting = await screen.findByRole('button', { name: 'Waiting for a free browser… Shop' });
    expect(waiting.getAttribute('aria-disabled')).toBe('true');
    expect(within(row('Shop')).getByText('Waiting for a free browser…')).toBeTruthy();
    expect(within(row('Mail')).getByText('Idle')).toBeTruthy();
    // Its session's event reached the worker: the profile runs and waits no more.
    await cachedProfiles.setValue({
      data: [{ ...shop, status: 'running', session_id: 'ses_9' }, mail],
      savedAt: 2,
    });
    await waitingStarts.setValue({});
    expect(await screen.findByRole('button', { name: 'Stop Shop' })).toBeTruthy();
    expect(within(row('Shop')).getByText('Running')).toBeTruthy();
  });

  it('asks before deleting, and deletes', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'profiles.refresh': listed(shop, mail), 'profile.delete': deleted });
    render(<Profiles />);
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Mail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Mail' }));
    expect(screen.getByText('Delete Mail? Its cookies and browser data are removed too.')).toBeTruthy();
    fireEvent.click(within(row('Mail')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(/Delete Mail\?/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Mail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Mail' }));
    fireEvent.click(within(row('Mail')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Mail')).toBeNull());
    expect(mock.sentOf('profile.delete')).toEqual([
      { type: 'profile.delete', profileId: 'prf_3', force: false },
    ]);
  });

  it('explains that a running profile is stopped first, and stops and deletes it', async () => {
    const running = profile('prf_4', 'Running', { status: 'running', session_id: 'ses_1' });
    installPopupBrowser();
    const mock = mockConnector({ 'profiles.refresh': listed(shop, running), 'profile.delete': deleted });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_4')], savedAt: 1 });
    render(<Profiles />);
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Running' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Running' }));
    expect(
      screen.getByText('Running is running. Stop its session and delete it, with its browser data?'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop and delete' }));
    await waitFor(() => expect(screen.queryByText('Running', { selector: 'strong' })).toBeNull());
    expect(mock.sentOf('profile.delete')).toEqual([
      { type: 'profile.delete', profileId: 'prf_4', force: true },
    ]);
  });

  it('offers to stop and delete when the service says the profile is running after all', async () => {
    installPopupBrowser();
    mockConnector({
      'profiles.refresh': listed(mail),
      'profile.delete': () =>
        fail('profile_running', 'The profile has a running session. Stop it first.', { status: 409 }),
    });
    render(<Profiles />);
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Mail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Mail' }));
    fireEvent.click(within(row('Mail')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The profile has a running session.');
    expect(screen.getByRole('button', { name: 'Stop and delete' })).toBeTruthy();
  });

  it('marks the profile a notification named', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': listed(shop, mail) });
    render(<Profiles focus="prf_3" />);
    await screen.findByText('Mail');
    expect(row('Mail').getAttribute('aria-current')).toBe('true');
    expect(row('Shop').getAttribute('aria-current')).toBeNull();
  });
});
