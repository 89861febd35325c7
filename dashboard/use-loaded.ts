import { useEffect, useState } from 'preact/hooks';
import { call } from './api';

/**
 * What `GET path` answers, read when the page opens and again by `load`, with the sentence of the last failure
 * (cleared by the next success). `setProblem` lets the page's own actions report theirs in the same place.
 */
export function useLoaded<T>(path: string) {
  const [data, setData] = useState<T>();
  const [problem, setProblem] = useState<string>();
  const load = () =>
    call<T>('GET', path).then(
      (next) => {
        setData(next);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);
  return { data, problem, setProblem, load };
}

/**
 * A list read a page at a time: the first page when the page opens and on `load()`, the next after the ones shown
 * on `load(next)`. `pathOf` makes a page's address from its cursor.
 */
export function usePages<T>(pathOf: (cursor?: string) => string) {
  const [items, setItems] = useState<T[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const load = (cursor?: string) =>
    call<{ data: T[]; next_cursor: string | null }>('GET', pathOf(cursor)).then(
      ({ data, next_cursor }) => {
        setItems((shown) => (cursor ? [...(shown ?? []), ...data] : data));
        setNext(next_cursor);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);
  return { items, next, problem, load };
}
