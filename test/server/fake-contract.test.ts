/**
 * The fake service (`test/support/fake-service.ts`), which the worker's unit tests and the watcher simulation
 * run against, answers as the real service does: the same cases run against both, and their answers must be
 * the same (ids told apart only by which session they name). A fake that drifts hides bugs, as one that
 * answered only its first page once hid the worker's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../lib/api/client';
import type { Plan } from '../../lib/api/schemas/account';
import type { Session } from '../../lib/api/schemas/sessions';
import { FakeService, SESSION_EXISTS_DETAIL } from '../support/fake-service';
import type { TestService } from '../support/harness';
import { startServiceInProcess } from '../support/in-process-service';

const PLAN: Plan = 'premium';

interface Target {
  name: string;
  /** A raw request, answered as `{ status, body, rate-limit header names }`. */
  request(method: string, pathname: string, body?: object): Promise<Answer>;
  api: ApiClient;
  /** A profile to start sessions for (the fake takes any id it is given a name for; the service needs a real one). */
  newProfile(name: string): Promise<string>;
}

interface Answer {
  status: number;
  body: unknown;
  rateLimitHeaders: string[];
}

let service: TestService;
const targets: Target[] = [];

function target(
  name: string,
  baseUrl: string,
  key: string,
  fetcher: typeof fetch,
  fake?: FakeService,
): Target {
  const api = createClient({ baseUrl, apiKey: key, fetch: fetcher });
  return {
    name,
    api,
    async request(method, pathname, body) {
      const response = await fetcher(`${baseUrl}${pathname}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const names = [...response.headers.keys()].filter((header) => /ratelimit|retry-after/i.test(header));
      return {
        status: response.status,
        body: JSON.parse(await response.text()),
        rateLimitHeaders: names.sort(),
      };
    },
    async newProfile(profileName) {
      if (!fake) return (await api.createProfile({ name: profileName })).id;
      const id = `prf_${profileName.replaceAll(' ', '_')}`;
      fake.profileNames.set(id, profileName);
      return id;
    },
  };
}

beforeAll(async () => {
  service = await startServiceInProcess();
  const fake = new FakeService(
    { now: () => Date.now(), setTimer: (run, ms) => setTimeout(run, ms) },
    { plan: PLAN },
  );
  targets.push(
    target('fake', 'http://fake.test', 'pk_fake', fake.fetch, fake),
    target('service', service.baseUrl, await service.createKey(PLAN), fetch),
  );
});

afterAll(async () => {
  await Promise.all(targets.map(({ api }) => stopAll(api)));
  await service?.close();
});

async function stopAll(api: ApiClient) {
  const { data } = await api.listSessions({ status: 'running', limit: 100 });
  await Promise.all(data.map((session) => api.stopSession({ session_id: session.id })));
}

/** Runs `play` against both targets and expects the same result from each. */
async function sameOnBoth<T>(play: (target: Target) => Promise<T>): Promise<T> {
  const [fake, real] = await Promise.all(targets.map(play));
  expect(fake, 'the fake answers as the service does').toEqual(real);
  return real as T;
}

describe('the fake service answers as the real one', () => {
  it('lists sessions of every status, newest first, in pages that follow next_cursor', async () => {
    const answer = await sameOnBoth(async ({ api, newProfile }) => {
      const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => newProfile(`List ${name}`)));
      const started: Session[] = [];
      for (const profile of [a, b, c] as string[])
        started.push(await api.startSession({ profile_id: profile, headless: true }));
      await api.stopSession({ session_id: started[1]?.id as string });
      const label = (id: string) => ['A', 'B', 'C'][started.findIndex((session) => session.id === id)];
      const first = await api.listSessions({ limit: 2 });
      const rest = await api.listSessions({ limit: 2, cursor: first.next_cursor ?? undefined });
      const running = await api.listSessions({ status: 'running' });
      const stopped = await api.listSessions({ status: 'stopped' });
      await stopAll(api);
      return {
        first: first.data.map((s) => [label(s.id), s.status, s.profile_name]),
        hasMore: first.next_cursor !== null,
        rest: rest.data.map((s) => [label(s.id), s.status]),
        last: rest.next_cursor,
        running: running.data.map((s) => label(s.id)),
        stopped: stopped.data.map((s) => [label(s.id), s.stop_reason]),
      };
    });
    expect(answer).toEqual({
      first: [
        ['C', 'running', 'List C'],
        ['B', 'stopped', 'List B'],
      ],
      hasMore: true,
      rest: [['A', 'running']],
      last: null,
      running: ['C', 'A'],
      stopped: [['B', 'user']],
    });
  });

  it('refuses a second session for a profile with the same 409, naming the running one', async () => {
    const answer = await sameOnBoth(async ({ api, request, newProfile }) => {
      const profile = await newProfile('Twice');
      const running = await api.startSession({ profile_id: profile, headless: true });
      const again = await request('POST', '/v1/sessions/start', { profile_id: profile, headless: true });
      await stopAll(api);
      const body = again.body as { session_id: string };
      return { ...again, body: { ...body, session_id: body.session_id === running.id } };
    });
    expect(answer).toMatchObject({ status: 409, body: { detail: SESSION_EXISTS_DETAIL, session_id: true } });
  });

  it('answers a stopped session on a second stop, and by profile the latest one', async () => {
    const answer = await sameOnBoth(async ({ api, request, newProfile }) => {
      const profile = await newProfile('Stop twice');
      const session = await api.startSession({ profile_id: profile, headless: true });
      await api.stopSession({ session_id: session.id });
      const again = await request('DELETE', `/v1/sessions/stop?session_id=${session.id}`);
      const byProfile = await request('DELETE', `/v1/sessions/stop?profile_id=${profile}`);
      const read = (answer: Answer) => {
        const body = answer.body as { id: string; status: string; stop_reason: string };
        return [answer.status, body.id === session.id, body.status, body.stop_reason];
      };
      return [read(again), read(byProfile)];
    });
    expect(answer).toEqual([
      [200, true, 'stopped', 'user'],
      [200, true, 'stopped', 'user'],
    ]);
  });

  it.each([
    ['a limit above a page of 100', 'GET', '/v1/sessions?limit=101'],
    ['a limit of 0', 'GET', '/v1/sessions?limit=0'],
    ['a cursor that is not one', 'GET', '/v1/sessions?cursor=bogus'],
    ['an unknown status', 'GET', '/v1/sessions?status=sleeping'],
    ['an unknown session', 'GET', '/v1/sessions/ses_unknown'],
    ['a stop of an unknown session', 'DELETE', '/v1/sessions/stop?session_id=ses_unknown'],
    ['a stop of a profile that never ran', 'DELETE', '/v1/sessions/stop?profile_id=prf_unknown'],
    ['a stop naming nothing', 'DELETE', '/v1/sessions/stop?'],
    ['an unknown run', 'GET', '/v1/automation/status?run_id=run_unknown'],
    ['an unknown run status', 'GET', '/v1/automation/status?status=sleeping'],
  ])('answers %s with the same problem', async (_, method, pathname) => {
    const answer = await sameOnBoth(({ request }) => request(method, pathname));
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it('answers an empty page of runs and sends the same rate-limit headers', async () => {
    const answer = await sameOnBoth(({ request }) => request('GET', '/v1/automation/status?status=active'));
    expect(answer).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect(answer.rateLimitHeaders).toContain('ratelimit');
  });
});
