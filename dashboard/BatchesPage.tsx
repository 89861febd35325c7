import { useEffect, useState } from 'preact/hooks';
import type { Batch } from '../lib/api/schemas/automation';
import { call } from './api';
import { Problem } from './Problem';
import { When } from './When';

/** Every batch of the account, newest first, each with its summary; More reads the next page. */
export function BatchesPage() {
  const [batches, setBatches] = useState<Batch[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const load = (cursor?: string) =>
    call<{ data: Batch[]; next_cursor: string | null }>(
      'GET',
      `/batches${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    ).then(
      ({ data, next_cursor }) => {
        setBatches((shown) => (cursor ? [...(shown ?? []), ...data] : data));
        setNext(next_cursor);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);

  return (
    <section class="stack">
      <h1>Batches</h1>
      <p>Every run of a script on many profiles, newest first, with how far it is.</p>
      <Problem text={problem} />
      {batches?.length === 0 && <p>No batch yet: run a script on several profiles from the extension.</p>}
      {batches && batches.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Made</th>
              <th scope="col">Summary</th>
            </tr>
          </thead>
          <tbody>
            {batches.map((batch) => (
              <tr key={batch.id}>
                <td>{batch.name ?? batch.id}</td>
                <td>
                  <When iso={batch.created_at} />
                </td>
                <td>
                  {batch.summary}
                  {batch.paused ? ' (paused)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button type="button" onClick={() => load(next)}>
          More
        </button>
      )}
    </section>
  );
}
