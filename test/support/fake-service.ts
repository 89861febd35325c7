/**
 * A model of the service for the worker's tests and the watcher simulation: the sessions and automation
 * endpoints the worker uses, the long-poll, and the plan's sliding-window rate limit. It answers as the service
 * does (lists of every status, newest first, in pages; the same problems), reusing the service's own validation,
 * pagination, limiter and problem bodies; `test/server/fake-contract.test.ts` runs the same cases against both.
 * Time comes from the given clock, so it runs as well under vitest's fake timers as in the simulation's virtual
 * hour. Answers are plain objects shaped like `Response` (all their promises settle in microtasks, which a
 * virtual clock needs).
 */
import type { AutomationRun, Session } from '../../lib/api';
import { endpoints } from '../../lib/api/endpoints';
import { RunStatusQuery, SessionListQuery } from '../../lib/api/inputs/queries';
import { SessionStop } from '../../lib/api/inputs/sessions';
import type { Plan } from '../../lib/api/schemas/account';
import { HOURLY_LIMITS } from '../../server/accounts/plans';
import { NotFound } from '../../server/core/domain-errors';
import { formatWait } from '../../server/core/wait';
import { domainProblem } from '../../server/http/errors';
import { ProblemError, type ProblemInit, problemBody } from '../../server/http/problem';
import { rateLimitHeaders } from '../../server/http/rate-limit';
import { SlidingWindowLimiter } from '../../server/http/sliding-window';
import { readCursor, validate } from '../../server/http/validate';
import { toPage } from '../../server/store/pagination';

/** A request's place in the plan's hourly window: the headers it gets, or its 429. */
type Admission = { headers: Record<string, string>; refusal?: Answer };

/** The service's answer to starting a profile that already runs (`server/sessions/start-session.ts`). */
export const SESSION_EXISTS_DETAIL = 'This profile already has a running session; stop it first or use it.';

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
  /** The account's plan: its hourly limit (none on enterprise: no headers sent). */
  plan: Plan;
  /** Time every answer takes. */
  latencyMs?: number;
}

interface Waiter {
  afterVersion: number;
  answer: () => void;
}

/** A run's change as the event stream sends it (`GET /v1/events`). */
export interface RunEvent {
  id: string;
  type: string;
  created_at: string;
  data: AutomationRun;
}

const HOUR_MS = 3_600_000;
const ENDED = ['succeeded', 'failed', 'cancelled'];
const iso = (ms: number) => new Date(ms).toISOString();

export class FakeService {
  readonly requests: RecordedRequest[] = [];
  readonly runs = new Map<string, AutomationRun>();
  readonly sessions = new Map<string, Session>();
  /** Profiles' names by id, as tests give them: the fake starts a session for any id, named or not. */
  readonly profileNames = new Map<string, string>();
  /** When each run reached its end, by the service's clock. */
  readonly endedAt = new Map<string, number>();
  /** The service refuses every request with this status while set (e.g. 503), or drops the connection (0). */
  outage: number | null = null;
  /** No browser is free: a start given `wait` answers that it waits in line (202), as the service's does. */
  noRoom = false;
  private readonly limiter = new SlidingWindowLimiter(HOUR_MS);
  /** The list position of every run and session, as the service's `seq`. */
  private readonly seqs = new Map<string, number>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private nextId = 1;
  /** Every run change, in order, as the event stream reports it; and the streams open now. */
  private readonly events: RunEvent[] = [];
  private readonly streams = new Set<(event: RunEvent) => void>();

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
    // As the service does, a stop is never counted nor refused.
    const stop = endpoints.stopSession;
    const quota: Admission =
      method === stop.method && url.pathname === stop.path ? { headers: {} } : this.admit();
    if (quota.refusal) {
      record(429);
      return this.reply(quota.refusal, init.signal);
    }
    const answer = () => this.route(method, url, body);
    const held = this.holdFor(method, url);
    if (!held) {
      const response = this.outage
        ? problem({ status: this.outage, code: 'internal', detail: 'Outage.' })
        : answer();
      record(response.status);
      return this.reply({ ...response, headers: { ...response.headers, ...quota.headers } }, init.signal);
    }
    record(200);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        afterVersion: held.afterVersion,
        answer: () => {
          this.waiters.get(held.runId)?.delete(waiter);
          const response = answer();
          this.reply({ ...response, headers: { ...response.headers, ...quota.headers } }, init.signal).then(
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
    const id = this.newId('run');
    const run: AutomationRun = {
      id,
      profile_id: profileId,
      profile_name: this.profileNames.get(profileId) ?? null,
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
    this.report(run);
    return run;
  }

  /** Changes a run (a step, a status), bumping its version and answering the long-polls waiting on it. */
  updateRun(id: string, patch: Partial<AutomationRun>): AutomationRun {
    const current = this.runs.get(id);
    if (!current) throw new Error(`no run ${id}`);
    const now = this.clock.now();
    const run = { ...current, ...patch, version: current.version + 1 };
    if (patch.status === 'running' && !run.started_at) run.started_at = iso(now);
    if (patch.status && ENDED.includes(patch.status)) {
      run.finished_at = iso(now);
      this.endedAt.set(id, now);
    }
    this.runs.set(id, run);
    for (const waiter of [...(this.waiters.get(id) ?? [])]) {
      if (run.version > waiter.afterVersion) waiter.answer();
    }
    this.report(run);
    return run;
  }

  /**
   * Opens the event stream for `key`, as `GET /v1/events` does: one request of the hourly quota (a refusal's
   * problem otherwise), then every run change after `lastEventId` and each new one, given to `send` as it
   * happens, until the returned function closes it.
   */
  openEvents(
    key: string,
    lastEventId: string | null,
    send: (event: RunEvent) => void,
  ): { close(): void } | { refused: object } {
    const quota = this.admit();
    this.requests.push({
      at: this.clock.now(),
      method: 'GET',
      path: '/v1/events',
      key,
      status: quota.refusal ? 429 : 200,
    });
    if (quota.refusal) return { refused: JSON.parse(quota.refusal.body) as object };
    if (lastEventId !== null) for (const event of this.events) if (event.id > lastEventId) send(event);
    this.streams.add(send);
    return { close: () => this.streams.delete(send) };
  }

  private report(run: AutomationRun): void {
    const type = ENDED.includes(run.status) ? 'run.finished' : run.version === 1 ? 'run.queued' : 'run.step';
    const id = String(this.events.length + 1).padStart(8, '0');
    const event = { id, type, created_at: iso(this.clock.now()), data: run };
    this.events.push(event);
    for (const send of [...this.streams]) send(event);
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
    const id = this.newId('ses');
    const session: Session = {
      id,
      profile_id: profileId,
      profile_name: this.profileNames.get(profileId) ?? null,
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

  private newId(prefix: string): string {
    const seq = this.nextId++;
    const id = `${prefix}_${seq}`;
    this.seqs.set(id, seq);
    return id;
  }

  private route(method: string, url: URL, body: string | undefined): Answer {
    try {
      return this.answer(method, url, body);
    } catch (error) {
      if (error instanceof ProblemError) return problem(error.problem);
      const answer = domainProblem(error);
      if (answer) return problem(answer);
      throw error;
    }
  }

  private answer(method: string, url: URL, body: string | undefined): Answer {
    const query = Object.fromEntries(url.searchParams);
    const path = url.pathname;
    if (method === 'GET' && path === '/v1/automation/status') {
      const { run_id, status, limit, cursor } = validate(RunStatusQuery, query, 'query');
      if (run_id) return json(200, this.runs.get(run_id) ?? throwing(new NotFound('run')));
      const active = (run: AutomationRun) => run.status === 'queued' || run.status === 'running';
      return json(
        200,
        this.page(this.runs, limit, cursor, (run) =>
          status === 'active' ? active(run) : !status || run.status === status,
        ),
      );
    }
    if (method === 'POST' && path === '/v1/automation/run') {
      const { profile_id, name } = JSON.parse(String(body)) as { profile_id: string; name?: string };
      return json(202, this.createRun(profile_id, name ?? null));
    }
    if (method === 'GET' && path === '/v1/sessions') {
      const { status, limit, cursor } = validate(SessionListQuery, query, 'query');
      return json(
        200,
        this.page(this.sessions, limit, cursor, (session) => !status || session.status === status),
      );
    }
    const sessionId = path.match(/^\/v1\/sessions\/(ses_\w+)$/)?.[1];
    if (method === 'GET' && sessionId)
      return json(200, this.sessions.get(sessionId) ?? throwing(new NotFound('session')));
    if (method === 'POST' && path === '/v1/sessions/start') {
      const { profile_id, wait } = JSON.parse(String(body)) as { profile_id: string; wait?: number };
      if (this.noRoom && wait)
        return json(202, {
          profile_id,
          status: 'waiting',
          detail: `No room for a browser came within ${wait} s.`,
        });
      const running = this.liveSessionOf(profile_id);
      if (running)
        return problem({
          status: 409,
          code: 'session_exists',
          detail: SESSION_EXISTS_DETAIL,
          extensions: { session_id: running.id },
        });
      return json(201, this.startSession(profile_id));
    }
    if (method === 'DELETE' && path === '/v1/sessions/stop') {
      const { session_id, profile_id } = validate(SessionStop, query, 'query');
      const session = session_id
        ? this.sessions.get(session_id)
        : (this.liveSessionOf(profile_id) ?? this.newest(this.sessions, (s) => s.profile_id === profile_id));
      if (!session) throw new NotFound(session_id ? 'session' : 'session for this profile');
      return json(200, session.status === 'running' ? this.stopSession(session.id, 'user') : session);
    }
    // Everything else a person clicks through (profiles, proxies, account) answers an empty page.
    return json(200, { data: [], next_cursor: null });
  }

  private liveSessionOf(profileId: string | undefined): Session | undefined {
    return this.newest(this.sessions, (s) => s.profile_id === profileId && s.status === 'running');
  }

  private newest<T extends { id: string }>(items: Map<string, T>, keep: (item: T) => boolean): T | undefined {
    return [...items.values()].reverse().find(keep);
  }

  /** A page of a list as the service gives it: newest first, `limit` items after the cursor's position. */
  private page<T extends { id: string }>(
    items: Map<string, T>,
    limit: number,
    cursor: string | undefined,
    keep: (item: T) => boolean,
  ) {
    const after = readCursor(cursor);
    const rows = [...items.values()]
      .map((item) => ({ item, seq: this.seqs.get(item.id) as number }))
      .filter(({ item, seq }) => keep(item) && (after === null || seq < after))
      .reverse()
      .slice(0, limit + 1);
    return toPage(rows, limit, ({ item }) => item);
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

  /** Counts the request in the plan's sliding window, as the service does: its headers, or its 429. */
  private admit(): Admission {
    const { plan } = this.options;
    const limit = HOURLY_LIMITS[plan];
    if (limit === null) return { headers: {} };
    const verdict = this.limiter.hit('account', limit, this.clock.now());
    const headers = rateLimitHeaders(verdict);
    if (verdict.allowed) return { headers };
    return {
      headers,
      refusal: problem({
        status: 429,
        code: 'rate_limited',
        detail: `The ${plan} plan allows ${limit} requests an hour; the next one is possible in ${formatWait(verdict.resetSeconds)}.`,
        headers: { ...headers, 'Retry-After': String(verdict.resetSeconds) },
      }),
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

function problem(init: ProblemInit): Answer {
  return {
    status: init.status,
    body: problemBody(init),
    headers: { 'Content-Type': 'application/problem+json', ...init.headers },
  };
}

function throwing(error: Error): never {
  throw error;
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
