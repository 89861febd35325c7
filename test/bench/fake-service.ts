/**
 * A model of the service for the worker's tests and the watcher simulation: the sessions and automation
 * endpoints the worker uses, the long-poll, and an exact per-account sliding-window rate limit with the
 * contract's headers. Time comes from the given clock, so it runs as well under vitest's fake timers as in
 * the simulation's virtual hour. Answers are plain objects shaped like `Response` (all their promises settle
 * in microtasks, which a virtual clock needs).
 */
import type { AutomationRun, Session } from '../../lib/api';

export interface ServiceClock {
  now(): number;
  setTimer(callback: () => void, ms: number): void;
}

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  /** The key that sent it: several keys may share the account's quota. */
  key: string;
  status: number;
  body?: string;
}

export interface ServiceOptions {
  /** Requests per rolling hour; null for an unlimited plan (no headers sent). */
  limit: number | null;
  /** Time every answer takes. */
  latencyMs?: number;
}

interface Waiter {
  afterVersion: number;
  answer: () => void;
}

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export class FakeService {
  readonly requests: RecordedRequest[] = [];
  readonly runs = new Map<string, AutomationRun>();
  readonly sessions = new Map<string, Session>();
  /** When each run reached its end, by the service's clock. */
  readonly endedAt = new Map<string, number>();
  /** The service refuses every request with this status while set (e.g. 503), or drops the connection (0). */
  outage: number | null = null;
  private readonly counted: number[] = [];
  private readonly waiters = new Map<string, Set<Waiter>>();
  private nextId = 1;

  constructor(
    private readonly clock: ServiceClock,
    private readonly options: ServiceOptions,
  ) {}

  readonly fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const key = new Headers(init.headers).get('Authorization')?.replace(/^Bearer /, '') ?? '';
    const body = typeof init.body === 'string' ? init.body : undefined;
    const record = (status: number) =>
      this.requests.push({
        at: this.clock.now(),
        method,
        path: url.pathname + url.search,
        key,
        status,
        body,
      });
    if (this.outage === 0) {
      record(0);
      return Promise.reject(new TypeError('fetch failed'));
    }
    const limited = this.admit();
    if (limited) {
      record(429);
      return this.reply(limited, init.signal);
    }
    const answer = () => this.route(method, url, body);
    const held = this.holdFor(method, url);
    if (!held) {
      const response = this.outage ? problem(this.outage, 'internal', 'Outage.') : answer();
      record(response.status);
      return this.reply(
        { ...response, headers: { ...response.headers, ...this.quotaHeaders() } },
        init.signal,
      );
    }
    record(200);
    const headers = this.quotaHeaders();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        afterVersion: held.afterVersion,
        answer: () => {
          this.waiters.get(held.runId)?.delete(waiter);
          const response = answer();
          this.reply({ ...response, headers: { ...response.headers, ...headers } }, init.signal).then(
            resolve,
            reject,
          );
        },
      };
      const set = this.waiters.get(held.runId) ?? new Set();
      set.add(waiter);
      this.waiters.set(held.runId, set);
      this.clock.setTimer(() => {
        if (set.has(waiter)) waiter.answer();
      }, held.waitMs);
      init.signal?.addEventListener('abort', () => {
        set.delete(waiter);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  };

  /** Creates a queued run, as `POST /v1/automation/run` does. */
  createRun(profileId: string, name: string | null = null): AutomationRun {
    const id = `run_${this.nextId++}`;
    const run: AutomationRun = {
      id,
      profile_id: profileId,
      session_id: null,
      name,
      status: 'queued',
      steps: [],
      output: {},
      error: null,
      version: 1,
      created_at: iso(this.clock.now()),
      started_at: null,
      finished_at: null,
    };
    this.runs.set(id, run);
    return run;
  }

  /** Changes a run (a step, a status), bumping its version and answering the long-polls waiting on it. */
  updateRun(id: string, patch: Partial<AutomationRun>): AutomationRun {
    const current = this.runs.get(id);
    if (!current) throw new Error(`no run ${id}`);
    const now = this.clock.now();
    const run = { ...current, ...patch, version: current.version + 1 };
    if (patch.status === 'running' && !run.started_at) run.started_at = iso(now);
    if (patch.status && ['succeeded', 'failed', 'cancelled'].includes(patch.status)) {
      run.finished_at = iso(now);
      this.endedAt.set(id, now);
    }
    this.runs.set(id, run);
    for (const waiter of [...(this.waiters.get(id) ?? [])]) {
      if (run.version > waiter.afterVersion) waiter.answer();
    }
    return run;
  }

  /** Plays a run out: running at `startAt`, one step change at each of `stepsAt`, then `outcome` at `endAt`. */
  scheduleRun(
    id: string,
    plan: { startAt: number; stepsAt: number[]; endAt: number; outcome: 'succeeded' | 'failed' },
  ) {
    const at = (time: number, change: () => void) => this.clock.setTimer(change, time - this.clock.now());
    at(plan.startAt, () => this.updateRun(id, { status: 'running' }));
    for (const [index, time] of plan.stepsAt.entries()) {
      at(time, () => {
        const steps = this.runs.get(id)?.steps ?? [];
        this.updateRun(id, { steps: [...steps, { index, action: 'goto', status: 'succeeded' }] });
      });
    }
    at(plan.endAt, () =>
      this.updateRun(
        id,
        plan.outcome === 'succeeded'
          ? { status: 'succeeded', output: { title: 'Example Domain' } }
          : { status: 'failed', error: 'Timed out waiting for #login.' },
      ),
    );
  }

  startSession(profileId: string): Session {
    const id = `ses_${this.nextId++}`;
    const session: Session = {
      id,
      profile_id: profileId,
      status: 'running',
      cdp_url: `ws://127.0.0.1:8787/v1/sessions/${id}/cdp/1800000000.${'x'.repeat(43)}`,
      headless: false,
      started_at: iso(this.clock.now()),
      stopped_at: null,
      stop_reason: null,
      error: null,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  stopSession(id: string, reason: Session['stop_reason']): Session {
    const current = this.sessions.get(id);
    if (!current) throw new Error(`no session ${id}`);
    const session = {
      ...current,
      status: 'stopped' as const,
      stopped_at: iso(this.clock.now()),
      stop_reason: reason,
    };
    this.sessions.set(id, session);
    return session;
  }

  private route(method: string, url: URL, body: string | undefined): Answer {
    const query = url.searchParams;
    const path = url.pathname;
    if (method === 'GET' && path === '/v1/automation/status') {
      const runId = query.get('run_id');
      if (runId) {
        const run = this.runs.get(runId);
        return run ? json(200, run) : problem(404, 'not_found', `No run ${runId}.`);
      }
      const listed = [...this.runs.values()].filter(
        (run) => query.get('status') !== 'active' || run.status === 'queued' || run.status === 'running',
      );
      return json(200, page(listed.reverse().slice(0, Number(query.get('limit') ?? 50))));
    }
    if (method === 'POST' && path === '/v1/automation/run') {
      const { profile_id, name } = JSON.parse(String(body)) as { profile_id: string; name?: string };
      return json(202, this.createRun(profile_id, name ?? null));
    }
    if (method === 'GET' && path === '/v1/sessions')
      return json(200, page([...this.sessions.values()].reverse()));
    if (method === 'POST' && path === '/v1/sessions/start') {
      const { profile_id } = JSON.parse(String(body)) as { profile_id: string };
      const running = [...this.sessions.values()].find(
        (s) => s.profile_id === profile_id && s.status === 'running',
      );
      if (running)
        return problem(409, 'session_exists', 'This profile already has a running session.', {
          session_id: running.id,
        });
      return json(201, this.startSession(profile_id));
    }
    if (method === 'DELETE' && path === '/v1/sessions/stop') {
      const id = query.get('session_id');
      const profileId = query.get('profile_id');
      const session = [...this.sessions.values()]
        .reverse()
        .find((s) => s.id === id || (s.profile_id === profileId && s.status === 'running'));
      if (!session) return problem(404, 'not_found', 'No such session.');
      return json(200, session.status === 'running' ? this.stopSession(session.id, 'user') : session);
    }
    // Everything else a person clicks through (profiles, proxies, account) answers an empty page.
    return json(200, page([]));
  }

  /** Long-polls of a run that has not moved past `after_version` are held until it does or `wait` passes. */
  private holdFor(method: string, url: URL) {
    const query = url.searchParams;
    const runId = query.get('run_id');
    const waitMs = Number(query.get('wait') ?? 0) * 1000;
    const afterVersion = Number(query.get('after_version') ?? -1);
    const run = runId ? this.runs.get(runId) : undefined;
    if (method !== 'GET' || !runId || !run || waitMs <= 0 || run.version > afterVersion || this.outage)
      return null;
    return { runId, waitMs, afterVersion };
  }

  /** Counts the request in the sliding window, or answers 429 when the hour's quota is used. */
  private admit(): Answer | null {
    const { limit } = this.options;
    const now = this.clock.now();
    while (this.counted.length > 0 && (this.counted[0] as number) <= now - HOUR_MS) this.counted.shift();
    if (limit === null || this.counted.length < limit) {
      this.counted.push(now);
      return null;
    }
    const retryAfter = Math.max(1, Math.ceil(((this.counted[0] as number) + HOUR_MS - now) / 1000));
    const answer = problem(429, 'rate_limited', 'The hourly request limit is used up.');
    return {
      ...answer,
      headers: { ...answer.headers, ...this.quotaHeaders(), 'Retry-After': String(retryAfter) },
    };
  }

  private quotaHeaders(): Record<string, string> {
    const { limit } = this.options;
    if (limit === null) return {};
    const now = this.clock.now();
    const remaining = Math.max(0, limit - this.counted.length);
    const oldest = this.counted[0];
    const reset = oldest === undefined ? 0 : Math.max(0, Math.ceil((oldest + HOUR_MS - now) / 1000));
    return {
      'RateLimit-Policy': `"hourly";q=${limit};w=3600`,
      RateLimit: `"hourly";r=${remaining};t=${reset}`,
    };
  }

  private reply(answer: Answer, signal: AbortSignal | null | undefined): Promise<Response> {
    const response = respond(answer);
    const latency = this.options.latencyMs ?? 0;
    if (latency === 0) return Promise.resolve(response);
    return new Promise((resolve, reject) => {
      this.clock.setTimer(
        () => (signal?.aborted ? reject(new DOMException('aborted', 'AbortError')) : resolve(response)),
        latency,
      );
    });
  }
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

function json(status: number, body: unknown): Answer {
  return { status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
}

function problem(status: number, code: string, detail: string, extra: object = {}): Answer {
  return {
    status,
    body: JSON.stringify({ type: 'about:blank', title: 'Error', status, code, detail, ...extra }),
    headers: { 'Content-Type': 'application/problem+json' },
  };
}

function page<T>(data: T[]) {
  return { data, next_cursor: null };
}

function respond({ status, body, headers }: Answer): Response {
  const response = {
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers(headers),
    text: async () => body,
    blob: async () => new Blob([body]),
  };
  return response as unknown as Response;
}
