// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sessions } from '../../../entrypoints/popup/Sessions';
import type { Session } from '../../../lib/api/schemas/sessions';
import { cachedProfiles, cachedSessions } from '../../../lib/storage';
import { type MockConnector, mockConnector } from './connector-mock';
import { AT, fail, installPopupBrowser, later, ok, profile, session } from './harness';

const reconciled = () => ok<Session[]>([]);

describe('Sessions', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(AT) + 5 * 60_000);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('says it is loading while the worker reconciles, then what to do when none run', async () => {
    const first = later<Session[]>();
    installPopupBrowser();
    mockConnector({ 'sessions.refresh': () => first.reply });
    render(<Sessions />);
    expect(await screen.findByText('Loading sessions…')).toBeTruthy();
    await cachedSessions.setValue({ data: [], savedAt: 1 });
    first.give(ok([]));
    expect(await screen.findByText('No sessions are running: start one from Profiles.')).toBeTruthy();
    // Nothing to stop: no Stop all that could only be disabled.
    expect(screen.queryByRole('button', { name: 'Stop all' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Go to Profiles' }));
    expect(location.hash).toBe('#/profiles');
  });

  it('lists running sessions with their profile and age, and copies the CDP URL', async () => {
    const writeText = vi.fn(async (_: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    installPopupBrowser();
    mockConnector({ 'sessions.refresh': reconciled });
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_1')], savedAt: 1 });
    render(<Sessions />);
    expect(await screen.findByText('Shop')).toBeTruthy();
    expect(screen.getByText(/started 5 minutes ago/)).toBeTruthy();
    expect(screen.getByText('1 running')).toBeTruthy();
    // The raw address waits behind its summary.
    expect(screen.getByText('CDP URL').closest('details')?.open).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('CDP URL of Shop').value).toBe(
      'ws://127.0.0.1:9222/devtools/browser/ses_1',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy CDP URL of Shop' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ws://127.0.0.1:9222/devtools/browser/ses_1'));
    expect(await screen.findByText('Copied')).toBeTruthy();
  });

  it('shows why the list could not be refreshed, with Retry', async () => {
    installPopupBrowser();
    mockConnector({
      'sessions.refresh': () => fail('timeout', 'The service took too long to answer.'),
    });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_1')], savedAt: 1 });
    render(<Sessions />);
    expect((await screen.findByRole('alert')).textContent).toContain('The service took too long to answer.');
    expect(await screen.findByText('prf_1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('stops one session through the worker', async () => {
    installPopupBrowser();
    const mock: MockConnector = mockConnector({
      'sessions.refresh': reconciled,
      'session.stop': () => ok(session('ses_1', 'prf_1', { status: 'stopped' })),
    });
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_1')], savedAt: 1 });
    render(<Sessions />);
    fireEvent.click(await screen.findByRole('button', { name: 'Stop Shop' }));
    await waitFor(() =>
      expect(mock.sent()).toContainEqual({
        type: 'session.stop',
        profileId: 'prf_1',
      }),
    );
  });

  it('stops all, and says which could not be stopped', async () => {
    installPopupBrowser();
    mockConnector({
      'sessions.refresh': reconciled,
      'session.stopAll': () =>
        ok({
          stopped: [],
          failed: [{ profileId: 'prf_1', message: 'The service took too long to answer.' }],
        }),
    });
    await cachedSessions.setValue({ data: [session('ses_1', 'prf_1')], savedAt: 1 });
    render(<Sessions />);
    await screen.findByText('prf_1');
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Stop all' }).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop 1' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Sessions that could not be stopped: 1. The service took too long to answer.',
    );
  });

  it('asks before stopping all, stops nothing on Cancel, and says how many it stopped', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'sessions.refresh': reconciled,
      'session.stopAll': () =>
        ok({ stopped: [session('ses_1', 'prf_1'), session('ses_2', 'prf_2')], failed: [] }),
    });
    await cachedSessions.setValue({
      data: [session('ses_1', 'prf_1'), session('ses_2', 'prf_2')],
      savedAt: 1,
    });
    render(<Sessions />);
    await screen.findByText('prf_1');
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Stop all' }).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop all' }));
    expect(screen.getByRole('group', { name: 'Stop all running sessions (2)?' })).toBeTruthy();
    // Stopping is the destructive answer: Cancel has the focus.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(mock.sentOf('session.stopAll')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Stop all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop 2' }));
    expect(await screen.findByText('Sessions stopped: 2.')).toBeTruthy();
    expect(mock.sentOf('session.stopAll')).toHaveLength(1);
  });

  it('after a 429 says how long to wait', async () => {
    installPopupBrowser();
    mockConnector({
      'sessions.refresh': () =>
        fail('rate_limited', 'The hourly request limit is used up. Try again in 30 seconds.', {
          status: 429,
          retryAfter: 30,
        }),
    });
    render(<Sessions />);
    expect((await screen.findByRole('alert')).textContent).toContain('Try again in 30 seconds.');
  });
});
