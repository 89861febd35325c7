// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchList } from '../../../entrypoints/popup/BatchList';
import type { Batch } from '../../../lib/api/schemas/automation';
import { mockConnector } from './connector-mock';
import { AT, installPopupBrowser, ok } from './harness';

const batch = (id: string, name: string, succeeded: number): Batch => ({
  id,
  name,
  created_at: AT,
  total: 10,
  queued: 10 - succeeded,
  running: 0,
  succeeded,
  failed: 0,
  cancelled: 0,
  finished: succeeded === 10,
  paused: false,
  retried: 0,
  estimated_finish_at: null,
  summary: '',
});

describe('the list of batches', () => {
  afterEach(cleanup);

  it('lists every batch newest first, each summed up, and shows the one chosen in the card', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'batches.list': () => ok([batch('bat_2', 'Second', 4), batch('bat_1', 'First', 10)]),
      'batch.show': () => ok(undefined),
    });
    render(<BatchList />);
    const names = await screen.findAllByRole('button');
    expect(names.map((button) => button.textContent)).toEqual(['Second', 'First']);
    expect(names[0]?.parentElement?.textContent).toBe('Second: 4 of 10 succeeded, 6 not finished yet');
    fireEvent.click(screen.getByRole('button', { name: 'First' }));
    await waitFor(() =>
      expect(mock.sentOf('batch.show')).toEqual([{ type: 'batch.show', batchId: 'bat_1' }]),
    );
  });
});
