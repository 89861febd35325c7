// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchCard } from '../../../entrypoints/popup/BatchCard';
import type { Batch } from '../../../lib/api/schemas/automation';
import { lastBatch } from '../../../lib/storage';
import { mockConnector } from './connector-mock';
import { AT, installPopupBrowser, ok, watched } from './harness';

const batch = (more: Partial<Batch> = {}): Batch => ({
  id: 'bat_1',
  name: 'Read prices',
  created_at: AT,
  total: 6,
  queued: 0,
  running: 0,
  succeeded: 5,
  failed: 1,
  cancelled: 0,
  finished: true,
  paused: false,
  retried: 0,
  estimated_finish_at: null,
  summary: '5 of 6 succeeded, 1 failed',
  ...more,
});

describe('the batch card', () => {
  afterEach(cleanup);

  it('sums the last batch up, lists its failed runs, retries them and exports the outputs', async () => {
    installPopupBrowser();
    await lastBatch.setValue('bat_1');
    const failedRun = watched({
      id: 'run_9',
      status: 'failed',
      error: 'The page did not load.',
      batch_id: 'bat_1',
    }).run;
    const mock = mockConnector({
      'batch.get': () => ok(batch()),
      'batch.runs': () => ok({ data: [failedRun], next_cursor: null }),
      'batch.retry': () => ok(batch({ failed: 0, queued: 1, finished: false })),
      'batch.export': ({ format }) => ok(format === 'csv' ? 'run_id\r\n' : '[]'),
    });
    const created = vi.fn(() => 'blob:batch');
    URL.createObjectURL = created;
    render(<BatchCard />);
    expect(await screen.findByText('5 of 6 succeeded, 1 failed')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Batch: Read prices' })).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show the failed only' }));
    expect(await screen.findByText('The page did not load.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(mock.sentOf('batch.export').map(({ format }) => format)).toEqual(['csv']);

    fireEvent.click(screen.getByRole('button', { name: 'Retry 1 failed' }));
    expect(await screen.findByText('5 of 6 succeeded, 1 not finished yet')).toBeTruthy();
    expect(mock.sentOf('batch.retry')).toEqual([{ type: 'batch.retry', batchId: 'bat_1' }]);
    expect(screen.queryByText('The page did not load.')).toBeNull();
  });

  it('counts a running batch, says when it should finish, and pauses, resumes and cancels it', async () => {
    installPopupBrowser();
    await lastBatch.setValue('bat_1');
    const running = batch({ queued: 92, running: 8, succeeded: 0, failed: 0, total: 100, finished: false });
    const mock = mockConnector({
      'batch.get': () => ok({ ...running, estimated_finish_at: '2026-11-28T14:05:00Z' }),
      'batch.pause': () => ok({ ...running, paused: true }),
      'batch.resume': () => ok(running),
      'batch.cancel': () => ok({ ...running, queued: 0, running: 0, cancelled: 100, finished: true }),
    });
    render(<BatchCard />);
    expect(
      await screen.findByText(/^92 queued, 8 running, 0 succeeded, 0 failed · Should finish around/),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resume' }));
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the rest' }));
    expect(await screen.findByText('0 of 100 succeeded, 100 cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel the rest' })).toBeNull();
    expect(mock.sentOf('batch.pause')).toEqual([{ type: 'batch.pause', batchId: 'bat_1' }]);
  });

  it('shows nothing before any batch', async () => {
    installPopupBrowser();
    mockConnector({});
    const { container } = render(<BatchCard />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });
});
