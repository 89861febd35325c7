import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { shownText } from '../core/bounded-text';
import { CdpSession } from './cdp-session';
import type { LiveMode } from './live-tokens';
import { tabControls } from './viewer-controls';
import { tabInput } from './viewer-input';
import { CONTROL_TYPES, parseViewerMessage } from './viewer-messages';
import { type Frame, type ViewerEffect, ViewerState } from './viewer-state';

/** Where the viewer's messages go: its WebSocket (or the relay to it). */
export interface ViewerLink {
  send(message: object): void;
  close(code: number, reason: string): void;
}

export interface LiveViewer {
  /** A message from the viewer, as text. */
  receive(text: string): void;
  /** The viewer left: its screencast and DevTools client end. */
  end(): void;
}

/** What a viewer of a session is shown and may do, besides its screen. */
export interface ViewerSession {
  devtools: CdpMultiplexer;
  mode: LiveMode;
  /** The tab an agent or a run used last: the view opens on it, and follows it when it changes. */
  activeTab(): string | null;
  /** The egress policy's sentence if it recently refused the session's browser a request to `host`. */
  egressRefusalOf(host: string): string | null;
  /** Stops the session (a controlling viewer's Stop). */
  stop(): Promise<void>;
  /** Answers the session's open request for help (a controlling viewer's Done, choice or typed answer). */
  answerHelp(requestId: string, answer: HelpAnswer): Promise<void>;
}

const TAB_LIST_DELAY_MS = 150;
const TAB_RELIST_MS = 3000;

/**
 * One viewer of a session's live view: the screencast of the tab it watches (frames only when the page
 * changes), each frame acknowledged to the browser only once the viewer shows it, so a slow viewer gets fewer
 * frames rather than a queue; and, in control mode, its mouse, keys and pasted text sent to that tab. The
 * page's own size is never changed: the frames are scaled to the viewer, not the page to its window.
 */
export async function startLiveViewer(session: ViewerSession, link: ViewerLink): Promise<LiveViewer> {
  const { mode } = session;
  const cdp = await CdpSession.attach(session.devtools, () => link.close(1001, 'The session stopped.'));
  const input = tabInput(cdp);
  const controls = tabControls(cdp, session.egressRefusalOf);
  const state = new ViewerState();

  const ignore = () => {};
  const sendTabs = () => link.send(state.tabsMessage());
  const startScreencast = (sessionId: string) =>
    cdp.send(
      'Page.startScreencast',
      {
        format: 'jpeg',
        quality: state.quality,
        maxWidth: state.size.width,
        maxHeight: state.size.height,
        everyNthFrame: 1,
      },
      sessionId,
    );
  // Chromium keeps a running screencast's size and quality when it is started again: it is stopped first.
  const restartScreencast = (sessionId: string) =>
    cdp
      .send('Page.stopScreencast', {}, sessionId)
      .then(() => startScreencast(sessionId))
      .catch(ignore);

  /** Carries out the state's effects; a watch is awaited, the rest are sent without waiting. */
  async function apply(effects: ViewerEffect[]): Promise<void> {
    for (const effect of effects) {
      if (effect.kind === 'show') {
        const { data, width, height } = effect.frame;
        link.send({ type: 'frame', data, width, height });
      } else if (effect.kind === 'release') {
        const { sessionId, number } = effect.frame;
        cdp.send('Page.screencastFrameAck', { sessionId: number }, sessionId).catch(ignore);
      } else if (effect.kind === 'restart') {
        if (state.watching) void restartScreencast(state.watching.sessionId);
      } else await watch(effect.tab);
    }
  }

  cdp.on('Page.screencastFrame', (params, sessionId) => {
    const metadata = params.metadata as { deviceWidth: number; deviceHeight: number };
    const frame: Frame = {
      sessionId: sessionId ?? '',
      number: params.sessionId as number,
      data: params.data as string,
      width: metadata.deviceWidth,
      height: metadata.deviceHeight,
    };
    void apply(state.frameCame(frame, performance.now()));
  });

  // Target events say when the tabs change, but not every change of a title: the list is read again then,
  // and every few seconds.
  let listing: NodeJS.Timeout | undefined;
  const listTabs = () => {
    clearTimeout(listing);
    listing = setTimeout(() => void readTabs().catch(ignore), TAB_LIST_DELAY_MS);
  };
  const relisting = setInterval(listTabs, TAB_RELIST_MS);
  async function readTabs(): Promise<void> {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const tabs = (targetInfos as { targetId: string; type: string; title: string; url: string }[])
      .filter((info) => info.type === 'page')
      .map((info) => ({ id: info.targetId, title: shownText(info.title), url: shownText(info.url) }));
    await apply(state.tabsRead(tabs, session.activeTab()));
    sendTabs();
  }
  cdp.on('Target.targetCreated', listTabs);
  cdp.on('Target.targetInfoChanged', listTabs);
  cdp.on('Target.targetDestroyed', listTabs);

  async function watch(targetId: string): Promise<void> {
    const previous = state.watching;
    if (previous?.targetId === targetId) return;
    if (mode === 'control') await cdp.send('Target.activateTarget', { targetId });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    if (state.ended) return;
    state.watched(targetId, sessionId as string);
    sendTabs();
    if (previous) cdp.send('Target.detachFromTarget', { sessionId: previous.sessionId }).catch(ignore);
    await startScreencast(sessionId as string);
  }

  const receive = (text: string) => {
    const message = parseViewerMessage(text);
    if (message === null) return link.close(1008, 'A live view message must be one of the viewer’s.');
    if (CONTROL_TYPES.has(message.type) && mode === 'view')
      return link.close(1008, 'This live view address is view-only: it sends no input and controls nothing.');
    const sessionId = state.watching?.sessionId;
    switch (message.type) {
      case 'ack':
        return void apply(state.acknowledged(performance.now()));
      case 'size':
        return void apply(state.resized(message.width, message.height));
      case 'watch':
        if (state.tabs.has(message.tab)) watch(message.tab).catch(ignore);
        return;
      case 'stop':
        session.stop().catch(ignore);
        return;
      case 'help-reply':
        session
          .answerHelp(message.request, message.answer)
          .catch((error: Error) => link.send({ type: 'said', detail: error.message }));
        return;
    }
    if (!sessionId) return;
    switch (message.type) {
      case 'mouse':
        return input.mouse(message, sessionId);
      case 'key':
        return input.key(message, sessionId);
      case 'text':
        return input.text(message.text, sessionId);
      case 'compose':
        return input.compose(message.text, sessionId);
      case 'navigate':
        controls
          .open(sessionId, message.url)
          .then((refusal) => link.send({ type: 'navigated', refusal }))
          .catch((error: Error) => link.send({ type: 'navigated', refusal: error.message }));
        return;
      case 'go':
        controls.go(sessionId, message.step).catch(ignore);
        return;
      case 'reload':
        controls.reload(sessionId).catch(ignore);
        return;
    }
  };

  const end = () => {
    state.ended = true;
    clearTimeout(listing);
    clearInterval(relisting);
    cdp.detach();
  };
  try {
    link.send({ type: 'mode', mode });
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    await readTabs();
  } catch (error) {
    end();
    throw error;
  }
  return { receive, end };
}
