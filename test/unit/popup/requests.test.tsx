// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceDownBanner } from '../../../components/ServiceDownBanner';
import { Requests, RequestsLine } from '../../../entrypoints/popup/Requests';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { openRequests } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok } from './harness';

function request(id: string, more: Partial<HelpRequest> = {}): HelpRequest {
  return {
    id,
    session_id: 'ses_1',
    profile_id: 'prf_1',
    profile_name: 'Shop 12',
    tab_id: 'A1B2C3',
    run_id: null,
    reason: 'enter the 2FA code',
    question: 'Which code came by text?',
    choices: [],
    status: 'open',
    outcome: null,
    text: null,
    choice: null,
    created_at: '2026-11-27T17:00:00.000Z',
    expires_at: '2026-11-27T17:05:00.000Z',
    answered_at: null,
    ...more,
  };
}

describe('Requests', () => {
  afterEach(cleanup);

  it('says on top of a view who needs the person, and links to the requests', async () => {
    installPopupBrowser();
    await openRequests.setValue([request('hlp_1'), request('hlp_2', { reason: 'approve the payment' })]);
    render(<RequestsLine />);
    const line = await screen.findByRole('link', { name: 'Shop 12 needs you: enter the 2FA code (+1)' });
    expect(line.getAttribute('href')).toBe('#/requests');
  });

  it('takes over, answers by text, by choice, done or declined', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'requests.refresh': () => ok(undefined),
      'request.takeOver': () => ok(true),
      'request.answer': () => ok(undefined),
    });
    await openRequests.setValue([
      request('hlp_1'),
      request('hlp_2', { reason: 'pick a slot', question: null, choices: ['Morning', 'Evening'] }),
    ]);
    render(<Requests />);
    expect(await screen.findByText('Which code came by text?')).toBeTruthy();
    expect(mock.sentOf('requests.refresh')).toHaveLength(1);

    fireEvent.click(screen.getAllByRole('button', { name: 'Take over' })[0] as HTMLElement);
    await waitFor(() =>
      expect(mock.sentOf('request.takeOver')).toEqual([{ type: 'request.takeOver', requestId: 'hlp_1' }]),
    );

    fireEvent.input(screen.getByLabelText('Your answer'), { target: { value: '318 204' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Evening' }));
    await waitFor(() => expect(mock.sentOf('request.answer')).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Decline' })[1]?.hasAttribute('disabled')).toBe(false),
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Decline' })[1] as HTMLElement);
    await waitFor(() =>
      expect(mock.sentOf('request.answer').map(({ requestId, answer }) => [requestId, answer])).toEqual([
        ['hlp_1', { outcome: 'answer', text: '318 204' }],
        ['hlp_2', { outcome: 'choice', choice: 'Evening' }],
        ['hlp_2', { outcome: 'declined' }],
      ]),
    );
    // A request with choices takes one of them, not typed text.
    expect(screen.getAllByLabelText('Your answer')).toHaveLength(1);
  });

  it('says when nobody waits', async () => {
    installPopupBrowser();
    mockConnector({ 'requests.refresh': () => ok(undefined) });
    await openRequests.setValue([]);
    render(<Requests />);
    expect(await screen.findByText(/Nobody is waiting for you/)).toBeTruthy();
  });

  it('says when it times out and which run asked, with a link to the run', async () => {
    installPopupBrowser();
    mockConnector({ 'requests.refresh': () => ok(undefined) });
    vi.useFakeTimers({ now: Date.parse('2026-11-27T17:01:00.000Z'), toFake: ['Date'] });
    await openRequests.setValue([request('hlp_1', { run_id: 'run_7' }), request('hlp_2')]);
    render(<Requests />);
    expect((await screen.findAllByText('Times out in 4 minutes')).length).toBe(2);
    expect(screen.getByRole('link', { name: 'Asked by a run' }).getAttribute('href')).toBe('#/runs/run_7');
    expect(screen.getByText(/Asked by an agent$/)).toBeTruthy();
    vi.useRealTimers();
  });

  it('says the service cannot be reached rather than that nobody waits, and starts afresh once it answers', async () => {
    installPopupBrowser();
    let up = false;
    const mock = mockConnector({
      'requests.refresh': () => fail('network_error', 'The service at 127.0.0.1:8787 cannot be reached.'),
      'sessions.refresh': () => (up ? ok([]) : fail('network_error', 'Still down.')),
    });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...location, reload });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await openRequests.setValue([]);
    render(
      <>
        <ServiceDownBanner />
        <Requests />
      </>,
    );
    expect(await screen.findByText(/^The service cannot be reached: requests for you show/)).toBeTruthy();
    expect(screen.queryByText(/Nobody is waiting/)).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/cannot be reached/);
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(mock.sentOf('sessions.refresh')).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
    up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reload).toHaveBeenCalled();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
});
