// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Profiles } from '../../../entrypoints/popup/Profiles';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { cachedProfiles, cachedProxies, plan } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { asRole, installPopupBrowser, ok, profile, proxy } from './harness';

const NOW = Date.parse('2025-01-06T09:00:00.000Z');

async function open(...profiles: Profile[]) {
  installPopupBrowser();
  await cachedProfiles.setValue({
    data: profiles,
    filter: {},
    next_cursor: null,
    total: profiles.length,
    savedAt: 1,
  });
  mockConnector({ 'profiles.refresh': () => ok(undefined) });
  render(<Profiles />);
  await screen.findByText(profiles[0]?.name ?? '');
}
const row = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('li') as HTMLElement;

describe('A profile row', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('has one primary action and its other actions behind ⋯', async () => {
    await open(profile('prf_1', 'Shop', { tags: ['eu'] }));
    const buttons = within(row('Shop')).getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Start Shop',
      'More actions for Shop',
    ]);
    expect(buttons[0]?.className).toBe('primary');
    fireEvent.click(buttons[1] as HTMLElement);
    expect(buttons[1]?.getAttribute('aria-expanded')).toBe('true');
    const actions = within(row('Shop')).getAllByRole('button').slice(2);
    expect(actions.map((button) => button.textContent)).toEqual([
      'Edit',
      'Clone',
      'Show tagged “eu”',
      'Delete',
    ]);
    await waitFor(() => expect(document.activeElement).toBe(actions[0]));
    fireEvent.keyDown(actions[0] as HTMLElement, { key: 'Escape' });
    expect(within(row('Shop')).getAllByRole('button')).toHaveLength(2);
    expect(document.activeElement).toBe(buttons[1]);
  });

  it('says when it was last used (exact time in a tooltip), its proxy host and notes, its tags on a line of their own', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    await open(
      profile('prf_1', 'Shop', {
        last_used_at: '2025-01-06T08:55:00.000Z',
        notes: 'Card ends 4242',
        proxy: 'socks5://alice@10.1.2.3:1080',
        tags: ['eu'],
      }),
      profile('prf_2', 'Fresh'),
    );
    const meta = within(row('Shop')).getByText(/^Used/);
    expect(meta.closest('small')?.textContent).toBe('Used 5 minutes ago · 10.1.2.3:1080 · Card ends 4242');
    expect(within(row('Shop')).getByText('#eu').closest('small')?.className).toBe('tags');
    expect(meta.getAttribute('title')).toMatch(/2025/);
    expect(within(row('Fresh')).getByText(/^Never used/)).toBeTruthy();
    expect(row('Shop').textContent).not.toContain('alice');
  });

  it('gives the focus back to ⋯ when a delete question is cancelled', async () => {
    await open(profile('prf_1', 'Shop'));
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Shop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Shop' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('More actions for Shop');
  });

  it('is one Tab stop in a list moved through with Up, Down, Home and End, its actions next from the focused row', async () => {
    await open(...['A', 'B', 'C', 'D'].map((name, n) => profile(`prf_${n}`, name)));
    const rows = () => [...document.querySelectorAll<HTMLElement>('ul.rows > li')];
    /** What Tab reaches inside the list: the focusable elements not taken out of the tab order. */
    const tabStops = () =>
      [...document.querySelectorAll<HTMLElement>('ul.rows li, ul.rows button, ul.rows input')].filter(
        (element) => element.tabIndex >= 0,
      );
    await waitFor(() =>
      expect(tabStops()).toEqual([rows()[0], ...within(row('A')).getAllByRole(/checkbox|button/)]),
    );
    const press = (key: string) => fireEvent.keyDown(document.activeElement as HTMLElement, { key });

    rows()[0]?.focus();
    press('ArrowDown');
    expect(document.activeElement).toBe(rows()[1]);
    expect(tabStops()).toEqual([rows()[1], ...within(row('B')).getAllByRole(/checkbox|button/)]);
    press('End');
    expect(document.activeElement).toBe(rows()[3]);
    press('ArrowDown');
    expect(document.activeElement).toBe(rows()[3]);
    press('Home');
    expect(document.activeElement).toBe(rows()[0]);
    press('ArrowUp');
    expect(document.activeElement).toBe(rows()[0]);

    // From a row's action the arrows move to the next row too; the action's row is the current one.
    within(row('C')).getByRole('button', { name: 'Start C' }).focus();
    expect(tabStops()[0]).toBe(rows()[2]);
    press('ArrowUp');
    expect(document.activeElement).toBe(rows()[1]);
    // The row's actions are reached from it: ⋯ opens its menu, whose arrows are its own.
    fireEvent.click(within(row('B')).getByRole('button', { name: 'More actions for B' }));
    const edit = await within(row('B')).findByRole('button', { name: 'Edit B' });
    await waitFor(() => expect(document.activeElement).toBe(edit));
    press('ArrowDown');
    expect(document.activeElement).toBe(edit);
  });

  it('says how its saved proxy’s last check went and where it exits, not what most rows share', async () => {
    const checkedAt = '2025-01-06T08:00:00.000Z';
    await open(
      profile('prf_1', 'Berlin shop', { proxy_id: 'prx_de', proxy: 'http://x@de.example:1' }),
      profile('prf_2', 'Dead shop', { proxy_id: 'prx_x', proxy: 'http://y@dead.example:1' }),
      profile('prf_3', 'New shop', { proxy_id: 'prx_new', proxy: 'http://z@new.example:1' }),
      profile('prf_4', 'Plain'),
      // Saved proxies beyond the kept list: the profile itself says how their last check went.
      profile('prf_5', 'Far shop', {
        proxy_id: 'prx_far',
        proxy: 'http://f@far.example:1',
        proxy_works: false,
      }),
      profile('prf_6', 'Far fine', { proxy_id: 'prx_ok', proxy: 'http://g@ok.example:1', proxy_works: true }),
    );
    await cachedProxies.setValue({
      data: [
        proxy('prx_de', 'DE 1', {
          last_check: { ok: true, city: 'Berlin', country: 'DE', took_ms: 9, checked_at: checkedAt },
        }),
        proxy('prx_x', 'Dead', {
          last_check: { ok: false, reason: 'Refused.', took_ms: 1, checked_at: checkedAt },
        }),
        proxy('prx_new', 'Unchecked'),
      ],
      savedAt: 1,
    });
    const line = (name: string) => within(row(name)).getByText(/^Never used/).textContent;
    await waitFor(() => expect(line('Berlin shop')).toBe('Never used · DE 1 ✓ Berlin, DE'));
    expect(line('Dead shop')).toBe('Never used · Dead ✗ fails');
    expect(line('New shop')).toBe('Never used · Unchecked');
    expect(line('Plain')).toBe('Never used · No proxy');
    expect(line('Far shop')).toBe('Never used · far.example:1 ✗ fails');
    expect(line('Far fine')).toBe('Never used · ok.example:1 ✓');
    expect(row('Plain').textContent).not.toMatch(/Linux|location/);
  });

  it('says who else holds a profile, and offers a viewer neither Start, Edit nor New profile', async () => {
    const since = '2025-01-06T10:32:00.000Z';
    const held = { member: { id: 'mem_eve', name: 'Eve' }, since, session_id: 'ses_1' };
    await open(
      profile('prf_1', 'Held', { held_by: held }),
      profile('prf_2', 'Mine', { held_by: { ...held, member: { id: 'mem_me', name: 'Me' } } }),
    );
    const me = { id: 'mem_me', name: 'Me' };
    await plan.setValue({ name: 'free', hourlyLimit: 100, sessionLimit: 2, member: me, ...asRole('runner') });
    // A runner starts, but neither makes nor edits profiles.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New profile' })).toBeNull());
    const time = new Date(since).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    expect(within(row('Held')).getByText(`Eve · ${time} ·`)).toBeTruthy();
    expect(within(row('Held')).getByRole('button', { name: 'Start Held' }).title).toBe(
      `Held is open by Eve since ${time}.`,
    );
    expect(within(row('Mine')).queryByText(/Me ·/)).toBeNull();
    fireEvent.click(within(row('Held')).getByRole('button', { name: 'More actions for Held' }));
    expect(within(row('Held')).queryByRole('button', { name: 'Edit Held' })).toBeNull();
    expect(within(row('Held')).queryByRole('button', { name: 'Delete Held' })).toBeNull();
    await plan.setValue({ name: 'free', hourlyLimit: 100, sessionLimit: 2, ...asRole('viewer') });
    await waitFor(() => expect(within(row('Held')).queryByRole('button', { name: 'Start Held' })).toBeNull());
  });
});
