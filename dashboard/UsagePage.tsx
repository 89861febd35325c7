import { useEffect, useState } from 'preact/hooks';
import type { Usage } from '../lib/dashboard/schemas';
import { call } from './api';
import { Problem } from './Problem';
import { UsageChart } from './UsageChart';

/** The plan, its hourly limit, the requests of the last hour and their chart, and what happens at the limit. */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage>();
  const [problem, setProblem] = useState<string>();
  const load = () =>
    call<Usage>('GET', '/usage').then(
      (next) => {
        setUsage(next);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  useEffect(() => void load(), []);

  return (
    <section class="stack">
      <h1>Usage</h1>
      <Problem text={problem} />
      {usage && (
        <>
          <p>
            Plan: <strong>{usage.plan}</strong>.{' '}
            {usage.hourly_limit === null
              ? 'Requests are unlimited and not counted.'
              : `It allows ${usage.hourly_limit} requests in any hour.`}
          </p>
          {usage.hourly_limit !== null && (
            <>
              <p data-testid="used">
                Used in the last hour: <strong>{usage.used_last_hour}</strong> of {usage.hourly_limit}.
              </p>
              <UsageChart perMinute={usage.per_minute} />
              <p class="muted">
                At the limit, the service refuses requests with 429 Too Many Requests and a Retry-After header
                saying how many seconds until the oldest request of the hour stops counting. Refused requests
                do not count. Every response says what is left in its RateLimit headers.
              </p>
            </>
          )}
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
