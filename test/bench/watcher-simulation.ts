/**
 * The watcher over a virtual hour on each plan: the worker's own watcher, planner and API client against a
 * model of the service with an exact sliding-window quota, while a person clicks around and keeps 1 or 5 runs
 * going, and Chrome ends the worker whenever it idles for 30 s (and now and then mid-request).
 *
 *   node --import tsx test/bench/watcher-simulation.ts
 *
 * Prints, per plan and number of runs: the requests spent in the hour (the watcher's and the person's), the
 * 429s, and how long after a run ended the worker noticed it (longest and mean); then the same for a worker that
 * follows the service's event stream (the worker's own stream client over a model of the WebSocket), polling
 * only while the stream is down.
 */
import { pathToFileURL } from 'node:url';
import { createEventStream } from '../../entrypoints/background/stream';
import { createWatcher, type Stored, type Watcher } from '../../entrypoints/background/watcher';
import { createClient } from '../../lib/api/client';
import type { QuotaSnapshot } from '../../lib/api/rate-limit';
import type { Plan } from '../../lib/api/schemas/account';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { EMPTY_HISTORY, HOUR_MS, type PollHistory } from '../../lib/scheduling/watch-plan';
import type { WatchedRun } from '../../lib/storage';
import { HOURLY_LIMITS } from '../../server/accounts/plans';
import { FakeService } from '../support/fake-service';
import { seededRandom } from '../support/seeded-random';

export interface Scenario {
  plan: Plan;
  /** Runs kept going at once. */
  runs: number;
  seed?: number;
  /** The person's own requests per hour (popup lists, clicks), besides starting runs. */
  clicksPerHour?: number;
  /** The worker follows the event stream while runs are followed (and polls only while it is down). */
  stream?: boolean;
}

export interface Figures {
  plan: Plan;
  runs: number;
  stream: boolean;
  /** Requests in the hour, by the watcher and by the person (clicks and run starts). */
  watcherRequests: number;
  personRequests: number;
  rateLimited: number;
  /** The most watcher requests in any rolling hour. */
  watcherPeakHour: number;
  /** The fewest requests the person had left when they clicked (null on an unlimited plan). */
  personLeastLeft: number | null;
  runsEnded: number;
  runsNoticed: number;
  longestNoticeMs: number;
  meanNoticeMs: number;
  /** Runs announced more than once. */
  announcedTwice: number;
  workerStarts: number;
}

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const BASE_URL = 'http://127.0.0.1:8787';
const LATENCY_MS = 40;
const IDLE_END_MS = 30_000;
/** After the hour, runs already started are followed to their end (no new ones, no clicks). */
const DRAIN_MS = 45 * 60_000;
const DEFAULT_CLICKS: Record<Plan, number> = { free: 20, premium: 200, enterprise: 600 };
/** How long a run takes, and how soon the person starts the next one on the same profile. */
const RUN_MS = [5 * 60_000, 30 * 60_000] as const;
const NEXT_RUN_MS = [60_000, 5 * 60_000] as const;
const STEP_MS = [5_000, 40_000] as const;
/** The service's heartbeat on an idle stream: a message that keeps a Chrome worker alive. */
const HEARTBEAT_MS = 15_000;

/** A clock whose time moves only from one scheduled event to the next. */
class VirtualClock {
  now = START;
  private queue: { at: number; seq: number; run: () => void }[] = [];
  private seq = 0;

  setTimer(run: () => void, ms: number): () => void {
    const event = { at: this.now + Math.max(0, ms), seq: this.seq++, run };
    const index = this.queue.findIndex((other) => other.at > event.at);
    this.queue.splice(index === -1 ? this.queue.length : index, 0, event);
    return () => {
      this.queue = this.queue.filter((other) => other !== event);
    };
  }

  /** Runs every event up to `end`, letting the promises each one starts settle before the next. */
  async runUntil(end: number): Promise<void> {
    for (let event = this.queue[0]; event && event.at <= end; event = this.queue[0]) {
      this.queue.shift();
      this.now = event.at;
      event.run();
      await settle();
    }
    this.now = end;
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A small seeded generator (mulberry32), so that every run of the bench sees the same hour. */
function random(seed: number) {
  const next = seededRandom(seed);
  return {
    between: (min: number, max: number) => min + (max - min) * next(),
    exponential: (mean: number) => -mean * Math.log(1 - next()),
    chance: (p: number) => next() < p,
  };
}

/** Extension storage: values survive the worker, and come back as copies, as they would from the browser. */
function memory<T>(initial: T): Stored<T> {
  let value = structuredClone(initial);
  return {
    getValue: async () => structuredClone(value),
    setValue: async (next) => {
      value = structuredClone(next);
    },
  };
}

export async function simulate({
  plan,
  runs: slots,
  seed = 1,
  clicksPerHour,
  stream: streamed = false,
}: Scenario): Promise<Figures> {
  const clock = new VirtualClock();
  const rng = random(seed);
  const limit = HOURLY_LIMITS[plan];
  const service = new FakeService(
    { now: () => clock.now, setTimer: (callback, ms) => clock.setTimer(callback, ms) },
    { plan, latencyMs: LATENCY_MS },
  );
  const end = START + HOUR_MS;

  // What the worker keeps in storage, shared by every worker instance.
  const runs = memory<WatchedRun[]>([]);
  const history = memory<PollHistory>(EMPTY_HISTORY);
  let quota: QuotaSnapshot | null = null;
  /** Chrome's one alarm of the worker: cancels the pending one. */
  const alarm = { cancel: () => {} };

  const noticed = new Map<string, number>();
  let announcedTwice = 0;
  let workerStarts = 0;
  let worker: { watcher: Watcher; end(): void; busy(): boolean; lastActive: number } | null = null;

  function startWorker() {
    workerStarts++;
    let alive = true;
    let inFlight = 0;
    const sockets = new Set<{ close(): void }>();
    const self = {
      lastActive: clock.now,
      end: () => {
        alive = false;
        worker = null;
        // Chrome ends the worker's sockets with it.
        for (const socket of sockets) socket.close();
      },
      busy: () => inFlight > 0,
      watcher: undefined as unknown as Watcher,
    };
    const touch = () => {
      self.lastActive = clock.now;
    };
    // An ended worker's requests still reach the service, but their answers reach no one.
    const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        inFlight++;
        service.fetch(input, init).then(
          (response) => {
            inFlight--;
            if (!alive) return;
            touch();
            resolve(response);
          },
          (error) => {
            inFlight--;
            if (!alive) return;
            touch();
            reject(error);
          },
        );
      });
    /** The service's event stream over a socket that lives and dies with this worker. */
    const openSocket = () => {
      let closed = false;
      let subscription: { close(): void } | null = null;
      let cancelBeat = () => {};
      const socket = {
        onopen: null as (() => void) | null,
        onmessage: null as ((message: { data: string }) => void) | null,
        onclose: null as ((close: { code: number }) => void) | null,
        deliver(data: string) {
          if (!alive || closed) return;
          touch();
          socket.onmessage?.({ data });
        },
        beat() {
          cancelBeat = clock.setTimer(() => {
            socket.deliver('{"type":"heartbeat"}');
            if (alive && !closed) socket.beat();
          }, HEARTBEAT_MS);
        },
        send(text: string) {
          const { last_event_id } = JSON.parse(text) as { last_event_id?: string };
          clock.setTimer(() => {
            if (!alive || closed) return;
            const opened = service.openEvents('watcher', last_event_id ?? null, (event) =>
              clock.setTimer(() => socket.deliver(JSON.stringify(event)), LATENCY_MS),
            );
            if ('refused' in opened) {
              socket.deliver(JSON.stringify(opened.refused));
              socket.onclose?.({ code: 4429 });
              return;
            }
            subscription = opened;
            socket.deliver('{"type":"open"}');
            socket.beat();
          }, LATENCY_MS);
        },
        close() {
          closed = true;
          subscription?.close();
          cancelBeat();
          sockets.delete(socket);
        },
      };
      sockets.add(socket);
      clock.setTimer(() => alive && !closed && socket.onopen?.(), LATENCY_MS);
      return socket as unknown as WebSocket;
    };
    const events = streamed
      ? createEventStream({
          connection: async () => ({ serviceUrl: BASE_URL, apiKey: 'watcher' }),
          onEvent: (event) => self.watcher.apply(event.data as unknown as AutomationRun),
          onCatchUp: () => self.watcher.catchUp(),
          onLiveChange: () => self.watcher.streamChanged(),
          setTimer: (callback, ms) => clock.setTimer(() => alive && callback(), ms),
          open: openSocket,
        })
      : null;
    // As the worker does: the stream is held while runs are followed.
    const holdWhileFollowing = (entries: WatchedRun[]) => {
      if (!events || !alive) return;
      if (entries.some((entry) => entry.phase === 'watching')) void events.hold('runs');
      else events.release('runs');
    };
    const followed: Stored<WatchedRun[]> = {
      getValue: () => runs.getValue(),
      setValue: async (value) => {
        await runs.setValue(value);
        holdWhileFollowing(value);
      },
    };
    self.watcher = createWatcher({
      api: async () =>
        createClient({
          baseUrl: BASE_URL,
          apiKey: 'watcher',
          fetch,
          onQuota: (snapshot) => {
            quota = snapshot;
          },
          sleep: (ms) => new Promise((resolve) => clock.setTimer(() => resolve(), ms)),
          now: () => clock.now,
        }),
      runs: followed,
      history,
      quota: { getValue: async () => quota },
      now: () => clock.now,
      setTimer: (callback, ms) =>
        clock.setTimer(() => {
          if (!alive) return;
          touch();
          callback();
        }, ms),
      alarm: {
        set: async (at) => {
          alarm.cancel();
          alarm.cancel = clock.setTimer(() => void (worker ?? startWorker()).watcher.wake(), at - clock.now);
        },
        clear: async () => alarm.cancel(),
      },
      announce: async (entry) => {
        if (noticed.has(entry.run.id)) announcedTwice++;
        else noticed.set(entry.run.id, clock.now);
      },
      streaming: () => events?.isLive() ?? false,
    });
    worker = self;
    void runs.getValue().then(holdWhileFollowing);
    void self.watcher.wake();
    return self;
  }

  // Chrome ends a worker that has had nothing to do for 30 s, and now and then one that had.
  const idleCheck = () => {
    if (worker && !worker.busy() && clock.now - worker.lastActive >= IDLE_END_MS) worker.end();
    if (clock.now < end + DRAIN_MS) clock.setTimer(idleCheck, 5_000);
  };
  clock.setTimer(idleCheck, 5_000);
  const randomEnd = () => {
    worker?.end();
    clock.setTimer(randomEnd, rng.exponential(10 * 60_000));
  };
  clock.setTimer(randomEnd, rng.exponential(10 * 60_000));

  const person = (method: string, path: string, body?: object) =>
    service.fetch(`${BASE_URL}${path}`, {
      method,
      headers: { Authorization: 'Bearer person', 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });

  // The person opens the popup now and then and clicks through a few lists.
  const clicks = clicksPerHour ?? DEFAULT_CLICKS[plan];
  const burst = 5;
  const popupVisit = () => {
    for (let i = 0; i < burst; i++) clock.setTimer(() => void person('GET', '/v1/profiles'), i * 3_000);
    const next = rng.exponential((HOUR_MS * burst) / clicks);
    if (clock.now + next < end) clock.setTimer(popupVisit, next);
  };
  clock.setTimer(popupVisit, rng.exponential((HOUR_MS * burst) / clicks));

  // Each slot keeps one run going: a few minutes of steps, then the next one a little after it ends.
  const startRun = async (slot: number) => {
    const response = await person('POST', '/v1/automation/run', { profile_id: `prf_${slot}`, script: {} });
    if (!response.ok) return;
    const run = JSON.parse(await response.text()) as AutomationRun;
    const startAt = clock.now + rng.between(1_000, 5_000);
    const endAt = startAt + rng.between(...RUN_MS);
    const stepsAt: number[] = [];
    for (let at = startAt + rng.between(...STEP_MS); at < endAt; at += rng.between(...STEP_MS))
      stepsAt.push(at);
    service.scheduleRun(run.id, {
      startAt,
      stepsAt,
      endAt,
      outcome: rng.chance(0.8) ? 'succeeded' : 'failed',
    });
    // The popup asks the worker to follow it, which wakes the worker if Chrome had ended it.
    await (worker ?? startWorker()).watcher.watch(run);
    const next = endAt + rng.between(...NEXT_RUN_MS);
    if (next < end) clock.setTimer(() => void startRun(slot), next - clock.now);
  };
  for (let slot = 0; slot < slots; slot++) clock.setTimer(() => void startRun(slot), rng.between(0, 60_000));

  startWorker();
  await clock.runUntil(end);
  const pending = () => activeRuns(service) > 0 || [...service.endedAt.keys()].some((id) => !noticed.has(id));
  for (let t = end; t < end + DRAIN_MS && pending(); t += 60_000) await clock.runUntil(t + 60_000);
  alarm.cancel();

  return figures({ plan, slots, streamed, limit, service, noticed, announcedTwice, workerStarts, end });
}

function activeRuns(service: FakeService): number {
  return [...service.runs.values()].filter((run) => run.status === 'queued' || run.status === 'running')
    .length;
}

function figures(input: {
  plan: Plan;
  slots: number;
  streamed: boolean;
  limit: number | null;
  service: FakeService;
  noticed: Map<string, number>;
  announcedTwice: number;
  workerStarts: number;
  end: number;
}): Figures {
  const { plan, slots, limit, service, noticed, end } = input;
  const counted = service.requests.filter((request) => request.status !== 429 && request.status !== 0);
  const inHour = counted.filter((request) => request.at < end);
  const watcher = counted.filter((request) => request.key === 'watcher').map((request) => request.at);
  let watcherPeakHour = 0;
  for (const at of watcher) {
    watcherPeakHour = Math.max(watcherPeakHour, watcher.filter((t) => t > at - HOUR_MS && t <= at).length);
  }
  // What the person had left at each click: the limit less every counted request in the hour before it.
  const personLeastLeft =
    limit === null
      ? null
      : Math.min(
          ...counted
            .filter((request) => request.key !== 'watcher')
            .map(
              ({ at }) => limit - counted.filter((other) => other.at > at - HOUR_MS && other.at < at).length,
            ),
        );
  const delays = [...input.service.endedAt].map(
    ([id, endedAt]) => (noticed.get(id) ?? Number.POSITIVE_INFINITY) - endedAt,
  );
  const seen = delays.filter(Number.isFinite);
  return {
    plan,
    runs: slots,
    stream: input.streamed,
    watcherRequests: inHour.filter((request) => request.key === 'watcher').length,
    personRequests: inHour.filter((request) => request.key !== 'watcher').length,
    rateLimited: service.requests.filter((request) => request.status === 429).length,
    watcherPeakHour,
    personLeastLeft,
    runsEnded: service.endedAt.size,
    runsNoticed: seen.length,
    longestNoticeMs: Math.max(0, ...delays),
    meanNoticeMs: seen.length ? seen.reduce((sum, delay) => sum + delay, 0) / seen.length : 0,
    announcedTwice: input.announcedTwice,
    workerStarts: input.workerStarts,
  };
}

export const SCENARIOS: Scenario[] = (['free', 'premium', 'enterprise'] as const).flatMap((plan) =>
  [1, 5].map((runs) => ({ plan, runs })),
);

/** The same hours with a worker that follows the event stream. */
export const STREAM_SCENARIOS: Scenario[] = SCENARIOS.map((scenario) => ({ ...scenario, stream: true }));

async function main(): Promise<void> {
  const rows = [];
  for (const scenario of [...SCENARIOS, ...STREAM_SCENARIOS]) {
    const f = await simulate(scenario);
    rows.push({
      plan: f.plan,
      runs: f.runs,
      watching: f.stream ? 'stream' : 'polls',
      'watcher req/h': f.watcherRequests,
      'person req/h': f.personRequests,
      '429s': f.rateLimited,
      'watcher peak/h': f.watcherPeakHour,
      'person least left': f.personLeastLeft ?? '∞',
      'runs ended/noticed': `${f.runsEnded}/${f.runsNoticed}`,
      'longest notice': `${(f.longestNoticeMs / 1000).toFixed(2)} s`,
      'mean notice': `${(f.meanNoticeMs / 1000).toFixed(2)} s`,
      'announced twice': f.announcedTwice,
      'worker starts': f.workerStarts,
    });
  }
  console.table(rows);
  // Requests that ended workers left unanswered still hold the client's (real) timeout timers.
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
