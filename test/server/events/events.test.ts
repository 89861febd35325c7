import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../../lib/api/client';
import { processesWithUserDataDir } from '../../support/browser-fixtures';
import { type EventStream, openEventStream } from '../../support/event-stream';
import { createDataDir, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/*
 * The event stream against the real service: SSE and its WebSocket form, in order, resumed with
 * Last-Event-ID (across a restart too), one request per stream, the plan's cap, and one account's events never
 * on another's stream.
 */

const SETTINGS = { EVENT_HEARTBEAT: '1' };
let dataDir: string;
let service: TestService;
const open: EventStream[] = [];

async function stream(key: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const opened = await openEventStream(service.baseUrl, key, headers);
  open.push(opened);
  return opened;
}

async function newAccount(plan: 'free' | 'premium' | 'enterprise') {
  const key = await service.createKey(plan);
  return { key, api: createClient({ baseUrl: service.baseUrl, apiKey: key, fetch }) };
}

/** An event as the test reads it: any type (the stream's own messages too), its data read field by field. */
type StreamEvent = { id: string; type: string; created_at: string; data: Record<string, unknown> };

const types = (events: StreamEvent[]) => events.map((event) => event.type);

async function take(events: EventStream, count: number): Promise<StreamEvent[]> {
  const taken: StreamEvent[] = [];
  while (taken.length < count) taken.push(await events.nextEvent());
  return taken;
}

beforeAll(async () => {
  dataDir = await createDataDir();
  service = await startServiceInProcess({ dataDir, env: SETTINGS });
});

afterAll(async () => {
  for (const opened of open) opened.close();
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('GET /v1/events', () => {
  it('sends the account’s changes in order, each with an increasing id', async () => {
    const { key, api } = await newAccount('premium');
    const events = await stream(key);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const proxy = await api.createProxy({ name: 'P', scheme: 'http', host: 'proxy.example', port: 8080 });
    const profile = await api.createProfile({ name: 'Shop', proxy_id: proxy.id });
    await api.updateProxy(proxy.id, { name: 'P2', scheme: 'http', host: 'proxy.example', port: 8081 });
    await api.deleteProfile(profile.id);
    await api.deleteProxy(proxy.id);
    const seen = await take(events, 5);
    expect(types(seen)).toEqual([
      'proxy.created',
      'profile.created',
      'proxy.updated',
      'profile.deleted',
      'proxy.deleted',
    ]);
    expect(seen[1]?.data).toMatchObject({ id: profile.id, name: 'Shop' });
    expect(seen[2]?.data).toMatchObject({ id: proxy.id, port: 8081 });
    expect(seen[3]?.data).toEqual({ id: profile.id, tags: [] });
    const ids = seen.map((event) => BigInt(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('resumes after a dropped connection with Last-Event-ID, without a gap, across a restart too', async () => {
    const { key, api } = await newAccount('premium');
    const first = await stream(key);
    await api.createProfile({ name: 'A' });
    const a = await first.nextEvent();
    first.close();
    await api.createProfile({ name: 'B' });
    await api.createProfile({ name: 'C' });
    const resumed = await stream(key, { 'Last-Event-ID': a.id });
    const missed = await take(resumed, 2);
    expect(missed.map((event) => event.data.name)).toEqual(['B', 'C']);
    resumed.close();

    await api.createProfile({ name: 'D' });
    await service.close();
    service = await startServiceInProcess({ dataDir, env: SETTINGS });
    const afterRestart = await stream(key, { 'Last-Event-ID': missed[1]?.id as string });
    const next: StreamEvent = await afterRestart.nextEvent();
    expect(next.data.name).toBe('D');
  });

  it('tells a client that resumes after an event it no longer keeps to read the lists again', async () => {
    const { key } = await newAccount('premium');
    const events = await stream(key, { 'Last-Event-ID': '999999999' });
    expect(await events.nextEvent()).toMatchObject({ type: 'stream.reset' });
  });

  it('costs one request of the hourly limit however long it stays open, heartbeats included', async () => {
    const { key, api } = await newAccount('free');
    const before = await fetch(`${service.baseUrl}/v1/account`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    const remaining = Number(before.headers.get('x-ratelimit-remaining'));
    const events = await stream(key);
    expect(Number(events.response.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    await events.next((frame) => frame.comment === 'heartbeat');
    await events.next((frame) => frame.comment === 'heartbeat');
    await api.getAccount();
    const after = await fetch(`${service.baseUrl}/v1/account`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remaining - 3);
  });

  it('holds as many streams as the plan allows (Free 2), refusing the next with 429, a sentence and no charge', async () => {
    const { key } = await newAccount('free');
    const held = [await stream(key), await stream(key)];
    const left = Number(held[1]?.response.headers.get('x-ratelimit-remaining'));
    const refused = await fetch(`${service.baseUrl}/v1/events`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(429);
    const account = await fetch(`${service.baseUrl}/v1/account`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(Number(account.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
    expect(await refused.json()).toMatchObject({
      code: 'stream_limit',
      detail: 'Your free plan allows 2 event streams open at once; close one to open another.',
    });
    held[0]?.close();
    // The slot comes back once the service sees the connection closed: the next heartbeat write at the latest.
    let reopened = await fetch(`${service.baseUrl}/v1/events`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    while (reopened.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      reopened = await fetch(`${service.baseUrl}/v1/events`, { headers: { Authorization: `Bearer ${key}` } });
    }
    expect(reopened.status).toBe(200);
    await reopened.body?.cancel();
  });

  it('never shows one account’s changes on another’s stream', async () => {
    const mine = await newAccount('premium');
    const theirs = await newAccount('premium');
    const events = await stream(mine.key);
    await theirs.api.createProfile({ name: 'Theirs' });
    await mine.api.createProfile({ name: 'Mine' });
    const first = await events.nextEvent();
    expect(first).toMatchObject({ type: 'profile.created', data: { name: 'Mine' } });
  });

  it('reports a session starting, running and stopped with browser_exited when its browser is killed', async () => {
    const { key, api } = await newAccount('enterprise');
    const events = await stream(key);
    const profile = await api.createProfile({ name: 'Killed' });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    const dir = path.join(service.dataDir, 'profiles', profile.id);
    for (const pid of processesWithUserDataDir(dir)) process.kill(pid, 'SIGKILL');
    const stopped = await events.nextEvent((event) => event.type === 'session.stopped');
    expect(stopped.data).toMatchObject({ id: session.id, status: 'stopped', stop_reason: 'browser_exited' });
    const before = await take(events, 3);
    expect(types(before)).toEqual(['profile.created', 'session.starting', 'session.running']);
    expect(before[2]?.data).toMatchObject({ id: session.id, cdp_url: null });
  });

  it('reports a run queued, started, each step as it starts and ends, and finished with its output', async () => {
    const { key, api } = await newAccount('enterprise');
    const events = await stream(key);
    const profile = await api.createProfile({ name: 'Runner' });
    const run = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'evaluate', expression: '1 + 1', name: 'two' },
          { action: 'evaluate', expression: '"x".repeat(3)', name: 'xs' },
        ],
      },
    });
    const finished = await events.nextEvent((event) => event.type === 'run.finished');
    expect(finished.data).toMatchObject({ id: run.id, status: 'succeeded', output: { two: 2, xs: 'xxx' } });
    const runEvents: StreamEvent[] = [];
    for (;;) {
      const event = await events.nextEvent();
      if (event.type.startsWith('run.')) runEvents.push(event);
      if (runEvents.length === 6) break;
    }
    expect(types(runEvents)).toEqual([
      'run.queued',
      'run.started',
      'run.step',
      'run.step',
      'run.step',
      'run.step',
    ]);
    expect(runEvents.slice(2).map((event) => [event.data.step_index, stepOf(event).status])).toEqual([
      [0, 'running'],
      [0, 'succeeded'],
      [1, 'running'],
      [1, 'succeeded'],
    ]);
    expect(stepOf(runEvents[3] as StreamEvent)).toMatchObject({
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
  });

  it('refuses a Last-Event-ID that is not an event id with 422', async () => {
    const { key } = await newAccount('premium');
    const response = await fetch(`${service.baseUrl}/v1/events`, {
      headers: { Authorization: `Bearer ${key}`, 'Last-Event-ID': 'yesterday' },
    });
    expect(response.status).toBe(422);
  });
});

describe('the WebSocket form of /v1/events', () => {
  const socketUrl = () => `${service.baseUrl.replace(/^http/, 'ws')}/v1/events`;

  function connect(): Promise<{
    socket: WebSocket;
    messages: AsyncIterator<string>;
    closed: Promise<number>;
  }> {
    const socket = new WebSocket(socketUrl());
    const queue: string[] = [];
    const waiting: ((text: string) => void)[] = [];
    socket.on('message', (data) => {
      const text = data.toString();
      const wake = waiting.shift();
      if (wake) wake(text);
      else queue.push(text);
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const messages: AsyncIterator<string> = {
      next: () =>
        new Promise((resolve) => {
          const text = queue.shift();
          if (text !== undefined) resolve({ value: text, done: false });
          else waiting.push((value) => resolve({ value, done: false }));
        }),
    };
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve({ socket, messages, closed }));
      socket.once('error', reject);
    });
  }

  const nextEvent = async (messages: AsyncIterator<string>): Promise<StreamEvent> => {
    for (;;) {
      const event = JSON.parse((await messages.next()).value) as StreamEvent;
      if (event.type !== 'heartbeat' && event.type !== 'open') return event;
    }
  };

  it('takes the key as the first message, then sends each event as a message, heartbeats too', async () => {
    const { key, api } = await newAccount('premium');
    const { socket, messages } = await connect();
    socket.send(JSON.stringify({ key }));
    expect(JSON.parse((await messages.next()).value)).toEqual({ type: 'open' });
    expect(JSON.parse((await messages.next()).value)).toEqual({ type: 'heartbeat' });
    await api.createProfile({ name: 'Over WS' });
    const created = await nextEvent(messages);
    expect(created).toMatchObject({ type: 'profile.created', data: { name: 'Over WS' } });

    await api.createProfile({ name: 'While away' });
    socket.close();
    const again = await connect();
    again.socket.send(JSON.stringify({ key, last_event_id: created.id }));
    expect(await nextEvent(again.messages)).toMatchObject({ data: { name: 'While away' } });
    again.socket.close();
  });

  it('closes with 4401 and the problem when the first message has no valid key', async () => {
    const { socket, messages, closed } = await connect();
    socket.send(JSON.stringify({ key: 'pp_not_a_key' }));
    expect(JSON.parse((await messages.next()).value)).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await closed).toBe(4401);
  });

  it('closes a client that goes on sending after its key with 1008', async () => {
    const { key } = await newAccount('premium');
    const { socket, messages, closed } = await connect();
    socket.send(JSON.stringify({ key }));
    expect(JSON.parse((await messages.next()).value)).toEqual({ type: 'open' });
    for (let sent = 0; sent < 1_000 && socket.readyState === WebSocket.OPEN; sent++) socket.send('{}');
    expect(await closed).toBe(1008);
  });

  it('counts against the same cap as SSE streams', async () => {
    const { key } = await newAccount('free');
    const sse = await stream(key);
    const first = await connect();
    first.socket.send(JSON.stringify({ key }));
    await first.messages.next();
    const second = await connect();
    second.socket.send(JSON.stringify({ key }));
    expect(JSON.parse((await second.messages.next()).value)).toMatchObject({
      status: 429,
      code: 'stream_limit',
    });
    expect(await second.closed).toBe(4429);
    first.socket.close();
    sse.close();
  });
});

function stepOf(event: StreamEvent): { status: string; started_at?: string; finished_at?: string } {
  const steps = event.data.steps as { index: number; status: string }[];
  return steps[event.data.step_index as number] as { status: string };
}
