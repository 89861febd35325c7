import type { UsageRow } from '../lib/api/schemas/usage';
import type { Usage } from '../lib/dashboard/schemas';
import { ListHead } from './ListHead';
import { Problem } from './Problem';
import { UsageChart } from './UsageChart';
import { useLoaded } from './use-loaded';

/** Requests of the last hour per member or per key, the most first. */
function UsageTable({ title, rows }: { title: string; rows: UsageRow[] }) {
  return (
    <table>
      <ListHead columns={[title, 'Requests in the last hour']} />
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td data-label={title}>{row.name}</td>
            <td data-label="Requests">{row.requests}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The plan, its hourly limit, the requests of the last hour, their chart, who made them (per member and per
 * key), and what happens at the limit.
 */
export function UsagePage() {
  const { data: usage, problem, load } = useLoaded<Usage>('/usage');

  return (
    <section class="stack">
      <h1>Usage</h1>
      <Problem text={problem} />
      {usage && (
        <>
          <p>
            Plan: <strong>{usage.plan}</strong>.{' '}
            {usage.hourly_limit === null
              ? 'Requests are unlimited: they are counted here, never refused.'
              : `It allows ${usage.hourly_limit} requests in any hour.`}
          </p>
          <p data-testid="used">
            Used in the last hour: <strong>{usage.used_last_hour}</strong>
            {usage.hourly_limit === null ? '.' : ` of ${usage.hourly_limit}.`}
          </p>
          <UsageChart perMinute={usage.per_minute} />
          {usage.hourly_limit !== null && (
            <p class="muted">
              At the limit, the service refuses requests with 429 Too Many Requests and a Retry-After header
              saying how many seconds until the oldest request of the hour stops counting. Refused requests do
              not count. Every response says what is left in its RateLimit headers.
            </p>
          )}
          <UsageTable title="Member" rows={usage.by_member} />
          <UsageTable title="Key" rows={usage.by_key} />
        </>
      )}
      <div class="bar">
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
    </section>
  );
}
