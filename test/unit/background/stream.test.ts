import { describe, expect, it, vi } from 'vitest';
import { createEventStream, type EventStreamDeps } from '../../../entrypoints/background/stream';
import type { ServiceEvent } from '../../../lib/api/schemas/events';

/** A WebSocket the test plays the service for: it sees what the worker sends and says what the service says. */
class FakeSocket {
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((close: { code: number }) => void) | null = null;
  constructor(readonly url: string) {}
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
  /** The service accepts the key. */
  accept() {
    this.onopen?.();
    this.onmessage?.({ data: '{"type":"open"}' });
  }
  event(id: string, type = 'session.stopped') {
    this.onmessage?.({ data: JSON.stringify({ id, type, created_at: '', data: { id: `ses_${id}` } }) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

function setUp() {
  const sockets: FakeSocket[] = [];
  const applied: ServiceEvent[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const liveChanges: boolean[] = [];
  const catchUps = vi.fn(async () => {});
  const deps: EventStreamDeps = {
    connection: async () => ({ serviceUrl: 'http://127.0.0.1:8787/', apiKey: 'pp_key' }),
    onEvent: async (event) => {
      applied.push(event);
    },
    onCatchUp: catchUps,
    onLiveChange: (live) => liveChanges.push(live),
    setTimer: (callback, ms) => {
      const timer = { callback, ms };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
    open: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
  };
  const stream = createEventStream(deps);
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { stream, sockets, applied, timers, liveChanges, catchUps, settled };
}

describe('the worker’s event stream', () => {
  it('opens one socket for all holders, sends the key as the first message and never in the address', async () => {
    const { stream, sockets } = setUp();
    await stream.hold('popup');
    await stream.hold('runs');
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.url).toBe('ws://127.0.0.1:8787/v1/events');
    sockets[0]?.accept();
    expect(sockets[0]?.sent.map((text) => JSON.parse(text))).toEqual([{ key: 'pp_key' }]);
  });

  it('is live once accepted, catches up once, and applies events in order', async () => {
    const { stream, sockets, applied, liveChanges, catchUps, settled } = setUp();
    await stream.hold('popup');
    sockets[0]?.accept();
    sockets[0]?.event('1');
    sockets[0]?.event('2');
    await settled();
    expect(stream.isLive()).toBe(true);
    expect(liveChanges).toEqual([true]);
    expect(catchUps).toHaveBeenCalledTimes(1);
    expect(applied.map((event) => event.id)).toEqual(['1', '2']);
  });

  it('after a drop, opens again later and resumes after the last event, without catching up again', async () => {
    const { stream, sockets, timers, liveChanges, catchUps, settled } = setUp();
    await stream.hold('sessions');
    sockets[0]?.accept();
    sockets[0]?.event('7');
    sockets[0]?.drop();
    expect(liveChanges).toEqual([true, false]);
    expect(timers.map((timer) => timer.ms)).toEqual([2000]);
    timers[0]?.callback();
    await settled();
    sockets[1]?.accept();
    expect(JSON.parse(sockets[1]?.sent[0] ?? '')).toEqual({ key: 'pp_key', last_event_id: '7' });
    await settled();
    expect(catchUps).toHaveBeenCalledTimes(1);
  });

  it('catches up when the service says it lost the point to resume from', async () => {
    const { stream, sockets, catchUps, settled } = setUp();
    await stream.hold('popup');
    sockets[0]?.accept();
    sockets[0]?.onmessage?.({ data: '{"type":"stream.reset","created_at":"","data":{}}' });
    await settled();
    expect(catchUps).toHaveBeenCalledTimes(2);
  });

  it('refused for the plan’s cap, leaves the watching to polling and tries again minutes later', async () => {
    const { stream, sockets, timers } = setUp();
    await stream.hold('runs');
    sockets[0]?.onmessage?.({ data: '{"status":429,"code":"stream_limit"}' });
    sockets[0]?.drop(4429);
    expect(stream.isLive()).toBe(false);
    expect(timers.map((timer) => timer.ms)).toEqual([300_000]);
  });

  it('with its key refused, does not try again', async () => {
    const { stream, sockets, timers } = setUp();
    await stream.hold('runs');
    sockets[0]?.drop(4401);
    expect(timers).toEqual([]);
  });

  it('closes once the last holder lets go, and tries no more', async () => {
    const { stream, sockets, timers } = setUp();
    await stream.hold('popup');
    await stream.hold('runs');
    sockets[0]?.accept();
    stream.release('popup');
    expect(sockets[0]?.closed).toBe(false);
    stream.release('runs');
    expect(sockets[0]?.closed).toBe(true);
    expect(stream.isLive()).toBe(false);
    sockets[0]?.drop();
    expect(timers).toEqual([]);
  });
});
