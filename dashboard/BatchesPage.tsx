import type { Batch } from '../lib/api/schemas/automation';
import { ListHead } from './ListHead';
import { Problem } from './Problem';
import { usePages } from './use-loaded';
import { When } from './When';

/** Every batch of the account, newest first, each with its summary; More reads the next page. */
export function BatchesPage() {
  const pathOf = (cursor?: string) => (cursor ? `/batches?cursor=${encodeURIComponent(cursor)}` : '/batches');
  const { items: batches, next, problem, load } = usePages<Batch>(pathOf);

  return (
    <section class="stack">
      <h1>Batches</h1>
      <p>Every run of a script on many profiles, newest first, with how far it is.</p>
      <Problem text={problem} />
      {batches?.length === 0 && <p>No batch yet: run a script on several profiles from the extension.</p>}
      {batches && batches.length > 0 && (
        <table>
          <ListHead columns={['Batch', 'Made', 'Summary']} />
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
