import { describe, expect, it } from 'vitest';
import { type Frame, QUALITIES, type Tab, ViewerState } from '../../../server/live/viewer-state';

/* The live viewer's state machine, without a browser or a socket: what each event makes its transport do. */

const tab = (id: string): Tab => ({ id, title: id, url: `https://${id}.example/` });
const frame = (number: number, sessionId = 'session-a'): Frame => ({
  sessionId,
  number,
  data: `jpeg ${number}`,
  width: 800,
  height: 600,
});

function watchingA(): ViewerState {
  const state = new ViewerState();
  state.tabsRead([tab('a'), tab('b')], null);
  state.watched('a', 'session-a');
  return state;
}

describe('a live viewer’s frames', () => {
  it('sends a frame at once, lets only the newest wait while the viewer draws, and sends it on the ack', () => {
    const state = watchingA();
    expect(state.frameCame(frame(1), 0)).toEqual([{ kind: 'show', frame: frame(1) }]);
    expect(state.frameCame(frame(2), 10)).toEqual([]);
    expect(state.frameCame(frame(3), 20)).toEqual([{ kind: 'release', frame: frame(2) }]);
    expect(state.acknowledged(200)).toEqual([
      { kind: 'release', frame: frame(1) },
      { kind: 'show', frame: frame(3) },
    ]);
    expect(state.acknowledged(400)).toEqual([{ kind: 'release', frame: frame(3) }]);
    expect(state.acknowledged(500)).toEqual([]);
  });

  it('lets a frame of a tab no longer watched go unshown, even one that waited', () => {
    const state = watchingA();
    expect(state.frameCame(frame(1, 'session-old'), 0)).toEqual([
      { kind: 'release', frame: frame(1, 'session-old') },
    ]);
    state.frameCame(frame(2), 0);
    state.frameCame(frame(3), 10);
    state.watched('b', 'session-b');
    expect(state.acknowledged(100)).toEqual([]);
    expect(state.frameCame(frame(4, 'session-b'), 110)).toEqual([
      { kind: 'show', frame: frame(4, 'session-b') },
    ]);
  });

  it('lowers the quality for a slow viewer and raises it for a fast one, a step at a time, restarting', () => {
    const state = watchingA();
    expect(state.quality).toBe(QUALITIES[1]);
    state.frameCame(frame(1), 0);
    expect(state.acknowledged(1000)).toEqual([{ kind: 'restart' }, { kind: 'release', frame: frame(1) }]);
    expect(state.quality).toBe(QUALITIES[0]);
    let now = 1000;
    const fastFrames = () => {
      state.frameCame(frame(now), now);
      now += 10;
      return state.acknowledged(now);
    };
    while (state.quality !== QUALITIES[2]) fastFrames();
    expect(fastFrames()).toEqual([{ kind: 'release', frame: frame(now - 10) }]);
  });

  it('restarts the screencast at a new size only while a tab is watched', () => {
    expect(new ViewerState().resized(390, 700)).toEqual([]);
    const state = watchingA();
    expect(state.resized(390, 700)).toEqual([{ kind: 'restart' }]);
    expect(state.size).toEqual({ width: 390, height: 700 });
  });
});

describe('a live viewer’s tabs', () => {
  it('opens on the agent’s tab, else the first, and tells the viewer the tabs and the one watched', () => {
    expect(new ViewerState().tabsRead([tab('a'), tab('b')], 'b')).toEqual([{ kind: 'watch', tab: 'b' }]);
    expect(new ViewerState().tabsRead([tab('a'), tab('b')], 'gone')).toEqual([{ kind: 'watch', tab: 'a' }]);
    expect(new ViewerState().tabsRead([], null)).toEqual([]);
    const state = watchingA();
    expect(state.tabsMessage()).toEqual({ type: 'tabs', tabs: [tab('a'), tab('b')], watching: 'a' });
  });

  it('follows the agent’s tab when it changes, but keeps a person’s own choice until it does', () => {
    const state = new ViewerState();
    expect(state.tabsRead([tab('a'), tab('b')], 'a')).toEqual([{ kind: 'watch', tab: 'a' }]);
    state.watched('a', 'session-a');
    state.watched('b', 'session-b');
    expect(state.tabsRead([tab('a'), tab('b')], 'a')).toEqual([]);
    expect(state.tabsRead([tab('a'), tab('b'), tab('c')], 'c')).toEqual([{ kind: 'watch', tab: 'c' }]);
  });

  it('watches another tab when the watched one closes', () => {
    const state = watchingA();
    expect(state.tabsRead([tab('b')], null)).toEqual([{ kind: 'watch', tab: 'b' }]);
    expect(state.watching).toBeNull();
    expect(state.tabsRead([], null)).toEqual([]);
  });
});
