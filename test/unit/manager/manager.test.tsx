// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manager } from '../../../entrypoints/manager/Manager';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { connection, lastBatch, waitingStarts } from '../../../lib/storage';
import { mockConnector } from '../popup/connector-mock';
import { AT, installPopupBrowser, list, ok, profile, watched } from '../popup/harness';

const profiles = [
  profile('prf_1', 'Shop', { tags: ['shop'], notes: 'old note' }),
  profile('prf_2', 'Mail', {
    held_by: { member: { id: 'mem_1', name: 'Ann' }, since: '2025-01-06T08:00:00.000Z', session_id: 'ses_1' },
  }),
  profile('prf_3', 'Bank'),
];
const answers = {
  'profiles.search': () => ok({ ...list(...profiles), total: profiles.length }),
  'proxies.refresh': () => ok(undefined),
  'profile.update': ({ profileId, changes }: { profileId: string; changes: Partial<Profile> }) =>
    ok({
      ...(profiles.find(({ id }) => id === profileId) as Profile),
      ...changes,
      applies_at_next_start: false,
    }),
};

beforeEach(async () => {
  installPopupBrowser();
  await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_x' });
});
afterEach(cleanup);

const rowOf = (name: string) => screen.getByText(name, { exact: true }).closest('tr') as HTMLElement;

describe('the manager', () => {
  it('lists every batch, newest first, each summed up, and shows the one chosen with retry and export', async () => {
    const batch = (id: string, name: string, failed: number) => ({
      id,
      name,
      created_at: '2025-01-06T08:00:00.000Z',
      total: 10,
      queued: 0,
      running: 0,
      succeeded: 10 - failed,
      failed,
      cancelled: 0,
      finished: true,
      paused: false,
      retried: 0,
      estimated_finish_at: null,
      summary: `${10 - failed} of 10 succeeded, ${failed} failed`,
    });
    const batches = [batch('bat_2', 'Second', 3), batch('bat_1', 'First', 0)];
    const mock = mockConnector({
      ...answers,
      'batches.list': () => ok(batches),
      'batch.show': async ({ batchId }) => {
        await lastBatch.setValue(batchId);
        return ok(undefined);
      },
      'batch.get': ({ batchId }) => ok(batches.find(({ id }) => id === batchId) as (typeof batches)[number]),
    });
    render(<Manager />);
    fireEvent.click(await screen.findByText('Batches', { selector: 'details.keys > summary' }));
    const listed = await screen.findAllByRole('button', { name: /Second|First/ });
    expect(listed.map((button) => button.parentElement?.textContent)).toEqual([
      'Second: 7 of 10 succeeded, 3 failed',
      'First: 10 of 10 succeeded',
    ]);
    fireEvent.click(listed[0] as HTMLElement);
    expect(await screen.findByRole('button', { name: 'Retry 3 failed' })).toBeTruthy();
    expect(mock.sentOf('batch.get')[0]?.batchId).toBe('bat_2');
  });

  it('shows the chosen batch’s runs with their state, a page at a time, and those of one state on asking', async () => {
    await lastBatch.setValue('bat_1');
    const run = (id: string, profile_name: string, status: AutomationRun['status']) =>
      watched({ id, profile_name, status, batch_id: 'bat_1' }).run;
    const first = [
      run('run_3', 'Shop', 'succeeded'),
      run('run_2', 'Mail', 'running'),
      run('run_1', 'Bank', 'queued'),
    ];
    const failed = run('run_0', 'Farm', 'failed');
    const mock = mockConnector({
      ...answers,
      'batches.list': () => ok([]),
      'batch.get': () =>
        ok({
          id: 'bat_1',
          name: 'Read prices',
          created_at: AT,
          total: 4,
          queued: 1,
          running: 1,
          succeeded: 1,
          failed: 1,
          cancelled: 0,
          finished: false,
          paused: false,
          retried: 0,
          estimated_finish_at: null,
          summary: '1 of 4 succeeded, 1 failed',
        }),
      'batch.runs': ({ status, cursor }) =>
        ok(
          status === 'failed' || cursor
            ? { data: [failed], next_cursor: null }
            : { data: first, next_cursor: 'cursor_2' },
        ),
    });
    render(<Manager />);
    fireEvent.click(await screen.findByText('Batches', { selector: 'details.keys > summary' }));
    const runs = await screen.findByRole('region', { name: 'The batch’s runs' });
    const states = () =>
      within(runs)
        .getAllByRole('listitem')
        .map(
          (item) =>
            `${item.querySelector('strong')?.textContent} ${item.querySelector('.status')?.textContent}`,
        );
    await waitFor(() =>
      expect(states()).toEqual(['Run on Shop succeeded', 'Run on Mail running', 'Run on Bank queued']),
    );
    // The card beside it no longer offers the failed only: the list does.
    expect(screen.queryByRole('checkbox', { name: 'Show the failed only' })).toBeNull();
    fireEvent.click(within(runs).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(states()).toHaveLength(4));
    expect(states()[3]).toBe('Run on Farm failed');
    expect(mock.sentOf('batch.runs').at(-1)).toMatchObject({ batchId: 'bat_1', cursor: 'cursor_2' });
    expect(within(runs).queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.input(within(runs).getByLabelText('Show'), { target: { value: 'failed' } });
    await waitFor(() => expect(states()).toEqual(['Run on Farm failed']));
    expect(mock.sentOf('batch.runs').at(-1)).toMatchObject({ batchId: 'bat_1', status: 'failed' });
  });

  it('lists every profile in a table read through the worker, a hundred at a time with the total', async () => {
    const mock = mockConnector(answers);
    render(<Manager />);
    await screen.findByText('Bank');
    expect(screen.getByRole('status').textContent).toBe('3 profiles');
    // Who holds a profile: the workspace member its session runs for.
    expect(within(rowOf('Mail')).getByText('Ann')).toBeTruthy();
    // A start that waits in the service's line for a free browser: said in its row, Start off meanwhile.
    expect(within(rowOf('Bank')).getByText('Idle')).toBeTruthy();
    await waitingStarts.setValue({ prf_3: '2025-01-06T09:00:00.000Z' });
    await within(rowOf('Bank')).findByText('Waiting for a free browser…');
    expect(
      within(rowOf('Bank'))
        .getByRole('button', { name: 'Waiting for a free browser… Bank' })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    expect(screen.getByRole('columnheader', { name: /Held by/ })).toBeTruthy();
    expect(mock.sentOf('profiles.search')[0]).toEqual({
      type: 'profiles.search',
      q: '',
      limit: 100,
      total: true,
    });
    expect(mock.followed()).toBe(1);
  });

  it('edits a note in place on a double click, and puts it back with Undo', async () => {
    const mock = mockConnector(answers);
    render(<Manager />);
    await screen.findByText('old note');
    fireEvent.dblClick(screen.getByText('old note'));
    const field = screen.getByLabelText('Edit Notes of Shop') as HTMLInputElement;
    fireEvent.input(field, { target: { value: 'new note' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await screen.findByText('Saved the Notes of Shop.');
    expect(mock.sentOf('profile.update')).toEqual([
      { type: 'profile.update', profileId: 'prf_1', changes: { notes: 'new note' } },
    ]);
    expect(screen.getByText('new note')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Put back the Notes of Shop.');
    expect(mock.sentOf('profile.update')[1]).toEqual({
      type: 'profile.update',
      profileId: 'prf_1',
      changes: { notes: 'old note' },
    });
  });

  it('selects with clicks as a spreadsheet does, offers the bulk actions, and moves and selects by keyboard', async () => {
    mockConnector(answers);
    render(<Manager />);
    await screen.findByText('Bank');
    fireEvent.click(within(rowOf('Shop')).getByText('Shop'));
    fireEvent.click(within(rowOf('Bank')).getByText('Bank'), { shiftKey: true });
    await screen.findByText('3 selected');
    expect(screen.getByRole('button', { name: 'Delete 3' })).toBeTruthy();
    fireEvent.click(within(rowOf('Mail')).getByText('Mail'), { ctrlKey: true });
    await screen.findByText('2 selected');
    fireEvent.keyDown(rowOf('Shop'), { key: 'Escape' });
    await screen.findByText('3 profiles');
    rowOf('Shop').focus();
    fireEvent.focusIn(rowOf('Shop'));
    fireEvent.keyDown(rowOf('Shop'), { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(rowOf('Mail')));
    fireEvent.keyDown(rowOf('Mail'), { key: ' ' });
    await screen.findByText('1 selected');
    fireEvent.keyDown(rowOf('Mail'), { key: 'Enter' });
    expect(screen.getByRole('button', { name: 'Clone Mail' })).toBeTruthy();
  });
});
