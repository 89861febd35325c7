// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Profiles } from '../../../entrypoints/popup/Profiles';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { cachedProfiles } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { installPopupBrowser, ok, profile } from './harness';

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

  it('says when it was last used, with the exact time in a tooltip, and shows its notes and proxy host', async () => {
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
    expect(meta.closest('small')?.textContent).toBe(
      'Used 5 minutes ago · 10.1.2.3:1080 · #eu · Card ends 4242',
    );
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
});
