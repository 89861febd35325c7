// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ListState, Problem } from '../../../components/Problem';
import { installPopupBrowser } from '../popup/harness';

describe('Problem', () => {
  beforeEach(() => installPopupBrowser());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows nothing without an error', () => {
    const { container } = render(<Problem error={null} retry={() => {}} />);
    expect(container.textContent).toBe('');
  });

  it('shows the sentence with a Retry that retries', () => {
    const retry = vi.fn();
    render(<Problem error={{ message: 'The service took too long to answer.' }} retry={retry} />);
    expect(screen.getByRole('alert').textContent).toContain('The service took too long to answer.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('after a 429, offers Retry only once the time the service asked for has passed', () => {
    vi.useFakeTimers();
    const message = 'The hourly request limit is used up. Try again in 30 seconds.';
    render(<Problem error={{ message, retryAfter: 30 }} retry={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('Try again in 30 seconds.');
    const retry = screen.getByRole<HTMLButtonElement>('button', { name: 'Retry' });
    expect(retry.disabled).toBe(true);
    act(() => {
      vi.advanceTimersByTime(29_000);
    });
    expect(retry.disabled).toBe(true);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(retry.disabled).toBe(false);
  });
});

describe('ListState', () => {
  afterEach(cleanup);
  beforeEach(() => installPopupBrowser());
  const texts = { loading: 'Loading profiles…', empty: 'No profiles yet.' };

  it('says it is loading while nothing is known and a request is under way', () => {
    render(<ListState list={undefined} busy {...texts} />);
    expect(screen.getByText('Loading profiles…').getAttribute('aria-busy')).toBe('true');
  });

  it('says what to do when the list is empty, and nothing when it has items', () => {
    const { rerender } = render(<ListState list={[]} busy={false} {...texts} />);
    expect(screen.getByText('No profiles yet.')).toBeTruthy();
    rerender(<ListState list={[1]} busy={false} {...texts} />);
    expect(screen.queryByText('No profiles yet.')).toBeNull();
  });
});
