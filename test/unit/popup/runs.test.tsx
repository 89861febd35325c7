// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Runs } from '../../../entrypoints/popup/Runs';
import { cachedProfiles, connection, watchedRuns } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { installPopupBrowser, ok, profile, watched } from './harness';

const steps = (...statuses: string[]) =>
  statuses.map((status, index) => ({
    index,
    action: ['goto', 'extract', 'screenshot'][index] ?? 'click',
    status,
  })) as never;

describe('Runs', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says what to do when there are none', async () => {
    installPopupBrowser();
    render(<Runs />);
    expect(await screen.findByText('No runs yet. Pick a profile and a script, then Run.')).toBeTruthy();
  });

  it('says nothing of none under the last batch’s card, which says what ran', async () => {
    installPopupBrowser();
    const { container } = render(<Runs batchShown />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });

  it('marks ended runs seen when it shows them, and a run that fails while they are on screen', async () => {
    installPopupBrowser();
    // As the worker does: every ended run becomes seen.
    const mock = mockConnector({
      'runs.seen': async () => {
        const runs = await watchedRuns.getValue();
        await watchedRuns.setValue(runs.map((entry) => ({ ...entry, seen: entry.phase !== 'watching' })));
        return ok(undefined);
      },
    });
    const failed = (id: string) => watched({ id, status: 'failed' }, { phase: 'ended' });
    await watchedRuns.setValue([failed('run_1'), watched({ id: 'run_2' })]);
    render(<Runs />);
    await waitFor(() => expect(mock.sentOf('runs.seen')).toHaveLength(1));
    await waitFor(async () => expect((await watchedRuns.getValue())[0]?.seen).toBe(true));

    const seenOne = (await watchedRuns.getValue()).slice(0, 1);
    await act(() => watchedRuns.setValue([...seenOne, failed('run_2')]));
    await waitFor(() => expect(mock.sentOf('runs.seen')).toHaveLength(2));
    await waitFor(async () => expect((await watchedRuns.getValue()).every((entry) => entry.seen)).toBe(true));
  });

  it('offers Watch on a running run, which asks the worker to open its session’s live view', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'session.watch': () => ok(false) });
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    await watchedRuns.setValue([
      watched({ id: 'run_1', session_id: 'ses_1' }),
      watched({ id: 'run_2', session_id: 'ses_2', status: 'succeeded' }, { phase: 'ended' }),
    ]);
    render(<Runs focus="run_1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Watch Run on Shop' }));
    await waitFor(() =>
      expect(mock.sentOf('session.watch')).toEqual([{ type: 'session.watch', sessionId: 'ses_1' }]),
    );
    // The session stopped meanwhile: said, not a tab on a dead address.
    expect(await screen.findByText('This session is no longer running.')).toBeTruthy();
    cleanup();
    // An ended run has no browser to watch.
    render(<Runs focus="run_2" />);
    await screen.findByRole('button', { name: 'Run again' });
    expect(screen.queryByRole('button', { name: /^Watch/ })).toBeNull();
  });

  it('follows a run step by step as the worker updates it', async () => {
    installPopupBrowser();
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    await watchedRuns.setValue([watched({ id: 'run_1', steps: steps('succeeded', 'running', 'pending') })]);
    render(<Runs />);
    expect(await screen.findByText('Run on Shop')).toBeTruthy();
    const items = () => screen.getAllByRole('listitem').filter((item) => item.closest('ol'));
    expect(items().map((item) => item.textContent)).toEqual([
      'goto succeeded',
      'extract running',
      'screenshot pending',
    ]);
    await act(() =>
      watchedRuns.setValue([
        watched({
          id: 'run_1',
          status: 'succeeded',
          steps: steps('succeeded', 'succeeded', 'succeeded'),
          output: { price: '42.00', count: 3 },
        }),
      ]),
    );
    await waitFor(() => expect(items().map((item) => item.textContent)).toContain('screenshot succeeded'));
    expect(screen.getByText('42.00')).toBeTruthy();
    expect(screen.getByText('3')).toBeTruthy();
  });

  it('gives the error sentence of a failed run once, its technical detail behind a toggle', async () => {
    installPopupBrowser();
    await watchedRuns.setValue([
      watched({
        id: 'run_1',
        name: 'Check prices',
        status: 'failed',
        steps: [
          { index: 0, action: 'goto', status: 'succeeded' },
          { index: 1, action: 'click', status: 'failed', error: 'No element matches #buy.' },
        ],
        error: 'Step 2 (click) failed: No element matches #buy.',
      }),
    ]);
    render(<Runs />);
    expect(await screen.findByText('Step 2 (click) failed: No element matches #buy.')).toBeTruthy();
    expect(screen.queryByText('No element matches #buy.')).toBeNull();
    cleanup();
    await watchedRuns.setValue([
      watched({
        id: 'run_2',
        status: 'failed',
        error:
          "Step 1 (goto 'http://x:1/') failed: the page did not load: the browser refuses (net::ERR_UNSAFE_PORT).",
      }),
    ]);
    render(<Runs />);
    expect(
      await screen.findByText(
        "Step 1 (goto 'http://x:1/') failed: the page did not load: the browser refuses.",
      ),
    ).toBeTruthy();
    expect(screen.getByText('Technical detail').closest('details')?.textContent).toContain(
      'net::ERR_UNSAFE_PORT',
    );
  });

  it('shows screenshots as thumbnails fetched from the service with the key', async () => {
    installPopupBrowser();
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(new Blob(['png'])));
    vi.stubGlobal('fetch', fetch);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:thumb');
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_key' });
    const path = '/v1/automation/runs/run_1/artifacts/page';
    await watchedRuns.setValue([watched({ id: 'run_1', status: 'succeeded', output: { page: path } })]);
    render(<Runs />);
    const image = await screen.findByRole('img', { name: 'Screenshot page' });
    expect(image.getAttribute('src')).toBe('blob:thumb');
    expect(fetch).toHaveBeenCalledWith(`http://127.0.0.1:8787${path}`, {
      headers: { Authorization: 'Bearer pp_live_key' },
    });
  });

  it('shows a screenshot at full width when asked, and small again', async () => {
    installPopupBrowser();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(new Blob(['png']))),
    );
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:shot');
    const path = '/v1/automation/runs/run_1/artifacts/page';
    await watchedRuns.setValue([watched({ id: 'run_1', status: 'succeeded', output: { page: path } })]);
    render(<Runs />);
    const image = await screen.findByRole('img', { name: 'Screenshot page' });
    expect(image.className).toBe('thumb');
    fireEvent.click(screen.getByRole('button', { name: 'Full size' }));
    expect(image.className).toBe('shot');
    fireEvent.click(screen.getByRole('button', { name: 'Smaller' }));
    expect(image.className).toBe('thumb');
  });

  it('names the profile, when the run started, how long it took, and its outputs in step order', async () => {
    installPopupBrowser();
    vi.useFakeTimers({ now: Date.parse('2025-01-06T09:05:00.000Z'), toFake: ['Date'] });
    await watchedRuns.setValue([
      watched({
        id: 'run_1',
        name: 'Prices',
        profile_name: 'Shop',
        status: 'succeeded',
        started_at: '2025-01-06T09:00:00.000Z',
        finished_at: '2025-01-06T09:00:07.000Z',
        steps: [
          { index: 0, action: 'extract', output_name: 'zeta', status: 'succeeded' },
          { index: 1, action: 'extract', output_name: 'alpha', status: 'succeeded' },
          { index: 2, action: 'evaluate', output_name: 'middle', status: 'succeeded' },
        ],
        // As the service's JSON gives them back: sorted, not in step order.
        output: { alpha: 'second', middle: 'third', zeta: 'first' },
      }),
    ]);
    render(<Runs />);
    const summary = (await screen.findByText('Prices')).closest('summary') as HTMLElement;
    expect(summary.textContent).toBe('Prices succeededShop · 5 minutes ago · 7 s');
    expect(within(summary).getByText('5 minutes ago').getAttribute('title')).toMatch(/2025/);
    expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual(['zeta', 'alpha', 'middle']);
    vi.useRealTimers();
  });

  it('says when a screenshot cannot be loaded', async () => {
    installPopupBrowser();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    const path = '/v1/automation/runs/run_1/artifacts/page';
    await watchedRuns.setValue([watched({ id: 'run_1', status: 'succeeded', output: { page: path } })]);
    render(<Runs />);
    expect(await screen.findByText('The screenshot could not be loaded.')).toBeTruthy();
  });

  it('opens the run a notification named, and cancels a run in progress', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'run.cancel': () => ok(watched({ id: 'run_2' }).run) });
    await watchedRuns.setValue([
      watched({ id: 'run_1', name: 'Newest', status: 'succeeded' }),
      watched({ id: 'run_2', name: 'Older', status: 'running' }),
    ]);
    render(<Runs focus="run_2" />);
    const details = (name: string) => screen.getByText(name).closest('details') as HTMLDetailsElement;
    await screen.findByText('Older');
    expect(details('Older').open).toBe(true);
    expect(details('Newest').open).toBe(false);
    fireEvent.click(within(details('Older')).getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(mock.sent()).toContainEqual({ type: 'run.cancel', runId: 'run_2' }));
  });
});
