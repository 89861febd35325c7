// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLoaded, usePages } from '../../../dashboard/use-loaded';

/** Answers each call with the next of `answers`, recording the addresses asked for. */
function serve(answers: Response[]) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return answers.shift() ?? Response.json({ detail: 'nothing more' }, { status: 500 });
    }),
  );
  return asked;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useLoaded', () => {
  it('reads on opening, keeps a failure as its sentence, and a later success clears it', async () => {
    serve([
      Response.json({ detail: 'The service is draining; try again.' }, { status: 503 }),
      Response.json({ plan: 'free' }),
    ]);
    const { result } = renderHook(() => useLoaded<{ plan: string }>('/usage'));
    await waitFor(() => expect(result.current.problem).toBe('The service is draining; try again.'));
    expect(result.current.data).toBeUndefined();
    await act(() => result.current.load());
    expect(result.current.data).toEqual({ plan: 'free' });
    expect(result.current.problem).toBeUndefined();
  });
});

describe('usePages', () => {
  it('reads the first page on opening, adds the next after it, and starts again on load()', async () => {
    const asked = serve([
      Response.json({ data: [1, 2], next_cursor: 'c2' }),
      Response.json({ data: [3], next_cursor: null }),
      Response.json({ data: [9], next_cursor: null }),
    ]);
    const { result } = renderHook(() =>
      usePages<number>((cursor) => `/batches${cursor ? `?cursor=${cursor}` : ''}`),
    );
    await waitFor(() => expect(result.current.items).toEqual([1, 2]));
    expect(result.current.next).toBe('c2');
    await act(() => result.current.load('c2'));
    expect(result.current.items).toEqual([1, 2, 3]);
    expect(result.current.next).toBeNull();
    await act(() => result.current.load());
    expect(result.current.items).toEqual([9]);
    expect(asked).toEqual([
      '/dashboard/api/batches',
      '/dashboard/api/batches?cursor=c2',
      '/dashboard/api/batches',
    ]);
  });
});
