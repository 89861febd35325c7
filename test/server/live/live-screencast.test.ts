import { describe, expect, it, vi } from 'vitest';
import { fakeDevtools, fakeLink, startViewer as startLiveViewer } from './fake-live-browser';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const mouse = {
  type: 'mouse',
  event: 'down',
  x: 10,
  y: 20,
  button: 'left',
  clicks: 1,
  deltaX: 0,
  deltaY: 0,
  modifiers: 0,
};

describe('a live viewer', () => {
  it('sends the next frame only once the viewer drew the last, and lets go of the frames that came meanwhile', async () => {
    const browser = fakeDevtools();
    const link = fakeLink();
    const viewer = await startLiveViewer(browser.devtools, 'control', link);
    expect(browser.commands.map((command) => command.method)).toContain('Page.startScreencast');
    expect(link.sent.filter((message) => message.type === 'tabs').at(-1)).toMatchObject({
      tabs: [{ id: 'T1', title: 'One' }],
      watching: 'T1',
    });

    browser.frame(1);
    browser.frame(2);
    browser.frame(3);
    await tick();
    // Frame 2 was overtaken by 3 before the viewer was ready: let go at once, never sent.
    expect(link.frames()).toEqual(['frame1']);
    expect(browser.acked()).toEqual([2]);

    viewer.receive(JSON.stringify({ type: 'ack' }));
    await tick();
    expect(link.frames()).toEqual(['frame1', 'frame3']);
    expect(browser.acked()).toEqual([2, 1]);
    viewer.receive(JSON.stringify({ type: 'ack' }));
    await tick();
    expect(browser.acked()).toEqual([2, 1, 3]);
    viewer.end();
  });

  it('lowers the frames’ quality for a viewer that confirms them slowly, and raises it again when it is quick', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const browser = fakeDevtools();
    const viewer = await startLiveViewer(browser.devtools, 'control', fakeLink());
    const qualities = () =>
      browser.commands
        .filter((command) => command.method === 'Page.startScreencast')
        .map((command) => command.params?.quality);
    const drawnAfter = async (number: number, ms: number) => {
      browser.frame(number);
      await tick();
      now += ms;
      viewer.receive(JSON.stringify({ type: 'ack' }));
      await tick();
    };
    await drawnAfter(1, 1000);
    expect(qualities()).toEqual([55, 35]);
    for (let number = 2; number < 20; number++) await drawnAfter(number, 20);
    expect(qualities().slice(-2)).toEqual([55, 75]);
    viewer.end();
  });

  it('sizes the frames to the viewer, not the page to the viewer, and sends its input to the tab', async () => {
    const browser = fakeDevtools();
    const viewer = await startLiveViewer(browser.devtools, 'control', fakeLink());
    viewer.receive(JSON.stringify({ type: 'size', width: 640, height: 400 }));
    viewer.receive(JSON.stringify(mouse));
    viewer.receive(JSON.stringify({ type: 'text', text: 'pasted' }));
    await tick();
    const methods = browser.commands.map((command) => command.method);
    expect(methods.some((method) => method?.startsWith('Emulation.'))).toBe(false);
    expect(
      browser.commands.filter((command) => command.method === 'Page.startScreencast').at(-1)?.params,
    ).toMatchObject({
      maxWidth: 640,
      maxHeight: 400,
    });
    expect(browser.commands.find((command) => command.method === 'Input.dispatchMouseEvent')).toMatchObject({
      sessionId: 'S1',
      params: { type: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1 },
    });
    expect(browser.commands.find((command) => command.method === 'Input.insertText')?.params).toEqual({
      text: 'pasted',
    });
    viewer.end();
  });

  it('takes no input from a view-only viewer and does not bring tabs to the front for it', async () => {
    const browser = fakeDevtools();
    const link = fakeLink();
    const viewer = await startLiveViewer(browser.devtools, 'view', link);
    viewer.receive(JSON.stringify(mouse));
    await tick();
    expect(link.closed).toEqual([{ code: 1008, reason: expect.stringMatching(/view-only/) }]);
    const methods = browser.commands.map((command) => command.method);
    expect(
      methods.filter((method) => method?.startsWith('Input.') || method === 'Target.activateTarget'),
    ).toEqual([]);
    viewer.end();
  });

  it('closes on a message that is not one of the viewer’s', async () => {
    const link = fakeLink();
    const viewer = await startLiveViewer(fakeDevtools().devtools, 'control', link);
    viewer.receive(JSON.stringify({ ...mouse, x: 'far' }));
    viewer.receive('not json');
    expect(link.closed.map((entry) => entry.code)).toEqual([1008, 1008]);
    viewer.end();
  });
});
