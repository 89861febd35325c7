// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Profiles } from '../../../entrypoints/popup/Profiles';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { cachedProfiles, cachedSessions, type PlanLimits, plan, quota } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok, profile, session } from './harness';

const named = (count: number) =>
  Array.from({ length: count }, (_, i) => profile(`prf_${i + 1}`, `Profile ${i + 1}`));
const FREE: PlanLimits = { name: 'free', hourlyLimit: 100, sessionLimit: 2 };
const ENTERPRISE: PlanLimits = { name: 'enterprise', hourlyLimit: null, sessionLimit: 50 };

/** The Profiles view over `profiles` (the first page of `total`), on `limits`, with the answers given. */
async function open(
  profiles: Profile[],
  limits: PlanLimits,
  answers: Parameters<typeof mockConnector>[0] = {},
) {
  installPopupBrowser();
  const listing = { data: profiles, filter: {}, next_cursor: null, total: profiles.length, savedAt: 1 };
  await cachedProfiles.setValue(listing);
  await plan.setValue(limits);
  await quota.setValue(
    limits.hourlyLimit === null
      ? { limit: null, remaining: null, resetSeconds: null, observedAt: 1 }
      : { limit: limits.hourlyLimit, remaining: 81, resetSeconds: 600, observedAt: 1 },
  );
  const mock = mockConnector({ 'profiles.refresh': () => ok(undefined), ...answers });
  render(<Profiles />);
  await screen.findByText(profiles[0]?.name ?? '');
  return mock;
}

const pick = (name: string) => fireEvent.click(screen.getByRole('checkbox', { name: `Select ${name}` }));

describe('Bulk actions', () => {
  afterEach(cleanup);

  it('warns, before starting, that more are picked than the plan’s sessions at once', async () => {
    await open(named(3), FREE);
    await cachedSessions.setValue({ data: [], savedAt: 1 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start 3' }));
    expect(
      screen.getByText(
        /Start 3 profiles\? Your free plan allows 2 sessions at once and 0 are running: only 2 of these can start\./,
      ),
    ).toBeTruthy();
  });

  it('over the plan’s sessions at once, its button says and starts only as many as have room', async () => {
    const mock = await open(named(3), FREE, {
      'session.start': ({ profileId }) => ok(session('s', profileId)),
    });
    await cachedSessions.setValue({ data: [], savedAt: 1 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start 3' }));
    const question = within(screen.getByRole('group', { name: /^Start 3 profiles\?/ }));
    expect(question.queryByRole('button', { name: 'Start 3' })).toBeNull();
    fireEvent.click(question.getByRole('button', { name: 'Start 2' }));
    expect(await screen.findByText('Started 2 of 2.')).toBeTruthy();
    expect(mock.sentOf('session.start')).toHaveLength(2);
  });

  it('says the service’s sentence once when the plan refuses more sessions, and sends no more starts', async () => {
    const sentence = 'Your free plan allows 2 sessions at once; stop one to start another.';
    let started = 0;
    // Sessions started elsewhere, not yet seen here: the service refuses the second start.
    const mock = await open(named(4), FREE, {
      'session.start': ({ profileId }) =>
        ++started <= 1 ? ok(session(`ses_${started}`, profileId)) : fail('session_limit', sentence),
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start 4' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: /^Start 4 profiles\?/ })).getByRole('button', {
        name: 'Start 2',
      }),
    );
    const outcome = await screen.findByText(/Started 1 of 2\./);
    expect(outcome.textContent).toBe(`Started 1 of 2.\nThe rest were not started: ${sentence}`);
    expect(mock.sentOf('session.start')).toHaveLength(2);
    expect(screen.queryByText(/hourly request limit/)).toBeNull();
  });

  it('starts at once, without a question, on a plan without an hourly limit and with room', async () => {
    const mock = await open(named(2), ENTERPRISE, {
      'session.start': ({ profileId }) => ok(session('s', profileId)),
    });
    pick('Profile 1');
    pick('Profile 2');
    const start = screen.getByRole('button', { name: 'Start 2' });
    expect(start.classList.contains('danger')).toBe(false);
    fireEvent.click(start);
    expect(screen.queryByRole('group', { name: /^Start 2 profiles\?/ })).toBeNull();
    await waitFor(() => expect(mock.sentOf('session.start')).toHaveLength(2));
  });

  it('puts the focus on Cancel, the safe answer, when asked to delete', async () => {
    await open(named(2), FREE);
    pick('Profile 2');
    const remove = screen.getByRole('button', { name: 'Delete 1' });
    expect(remove.classList.contains('danger')).toBe(true);
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
  });

  it('picks every profile the search matches, reading the pages not shown yet', async () => {
    const all = named(120);
    const mock = await open(all.slice(0, 50), FREE, {
      'profiles.more': async () => {
        const listed = await cachedProfiles.getValue();
        const data = all.slice(0, (listed?.data.length ?? 0) + 50);
        const next_cursor = data.length < all.length ? `c${data.length}` : null;
        await cachedProfiles.setValue({ ...listed, data, next_cursor, savedAt: 1 });
        return ok(undefined);
      },
    });
    await cachedProfiles.setValue({
      data: all.slice(0, 50),
      filter: {},
      next_cursor: 'c50',
      total: 120,
      savedAt: 1,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Select all 120 matching' }));
    expect(await screen.findByText('120 selected')).toBeTruthy();
    expect(mock.sentOf('profiles.more')).toHaveLength(2);
  });
});
