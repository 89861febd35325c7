// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeysPage } from '../../../dashboard/KeysPage';
import type { DashboardKey } from '../../../lib/dashboard/schemas';

const key = (id: string, name: string, extensionUsedAt: string | null = null): DashboardKey => ({
  id,
  name,
  prefix: `pp_live_${id}`,
  member_id: 'mem_1',
  role: 'owner',
  scope: null,
  mine: true,
  created_at: '2026-11-01T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  extension_used_at: extensionUsedAt,
});

describe('KeysPage', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          data: [key('k1', 'Laptop'), key('k2', 'Server'), key('k3', 'Extension', new Date().toISOString())],
        }),
      ),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks before a revoke in a row of its own under the key, leaving the keys’ cells as they were', async () => {
    render(<KeysPage myRole="owner" />);
    const row = (await screen.findByText('Laptop')).closest('tr') as HTMLTableRowElement;
    const before = row.innerHTML;
    const columns = row.cells.length;
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const question = screen.getByText('Revoke “Laptop”? Programs using it are refused at once.');
    // The row's own cells do not change, so no column widens and the table does not reflow.
    expect(row.innerHTML.replace(' aria-expanded="true"', ' aria-expanded="false"')).toBe(before);
    const asking = question.closest('tr') as HTMLTableRowElement;
    expect(asking.previousElementSibling).toBe(row);
    expect(asking.cells).toHaveLength(1);
    expect(asking.cells[0]?.colSpan).toBe(columns);
    fireEvent.click(within(asking).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(/^Revoke “Laptop”/)).toBeNull();
    expect(screen.queryByText(/extension used this key/)).toBeNull();
  });

  it('warns before revoking the key the extension uses', async () => {
    render(<KeysPage myRole="owner" />);
    const row = (await screen.findByText('Extension')).closest('tr') as HTMLTableRowElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const warning = screen.getByText(/The Profile Pilot extension used this key/);
    expect(warning.textContent).toMatch(
      /used this key now: it is disconnected until it is given another key\./,
    );
  });
});
