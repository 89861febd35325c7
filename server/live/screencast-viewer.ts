import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { shownText } from '../core/bounded-text';
import { CdpSession } from './cdp-session';
import type { LiveMode } from './live-tokens';
import { tabControls } from './viewer-controls';
import { tabInput } from './viewer-input';
import { CONTROL_TYPES, parseViewerMessage } from './viewer-messages';

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

interface Tab {
  id: string;
  title: string;
  url: string;
}

/** A screencast frame, by the DevTools session of the tab it shows and its number there. */
interface Frame {
  sessionId: string;
  data: string;
  width: number;
  height: number;
  number: number;
}

/** Frame quality steps, chosen by how fast the viewer confirms frames (its connection and its screen). */
const QUALITIES = [35, 55, 75] as const;
const SLOW_ACK_MS = 350;
const FAST_ACK_MS = 120;

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
  const tabs = new Map<string, Tab>();
  let watching: { targetId: string; sessionId: string } | null = null;
  /** The agent's or run's tab when last looked at: a change of it is followed, a person's own choice stays. */
  let followed: string | null = null;
  let size = { width: 1280, height: 800 };
  let quality: number = QUALITIES[1];
  /** The frame the viewer is drawing (not yet acknowledged), and the newest one that came meanwhile. */
  let shown: (Frame & { sentAt: number }) | null = null;
  let next: Frame | null = null;
  let ackMs = 0;
  let ended = false;

  const ignore = () => {};
  const sendTabs = () => link.send({ type: 'tabs', tabs: [...tabs.values()], watching: watching?.targetId });
  const ackToBrowser = (sessionId: string, frameNumber: number) =>
    cdp.send('Page.screencastFrameAck', { sessionId: frameNumber }, sessionId).catch(ignore);

  const startScreencast = (sessionId: string) =>
    cdp.send(
      'Page.startScreencast',
      { format: 'jpeg', quality, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 1 },
      sessionId,
    );
  // Chromium keeps a running screencast's size and quality when it is started again: it is stopped first.
  const restartScreencast = (sessionId: string) =>
    cdp
      .send('Page.stopScreencast', {}, sessionId)
      .then(() => startScreencast(sessionId))
      .catch(ignore);

  const showFrame = (frame: Frame) => {
    shown = { ...frame, sentAt: performance.now() };
    link.send({ type: 'frame', data: frame.data, width: frame.width, height: frame.height });
  };

  const fitQuality = (elapsedMs: number) => {
    ackMs = ackMs === 0 ? elapsedMs : ackMs * 0.8 + elapsedMs * 0.2;
    const step = QUALITIES.indexOf(quality as (typeof QUALITIES)[number]);
    const better = ackMs > SLOW_ACK_MS ? step - 1 : ackMs < FAST_ACK_MS ? step + 1 : step;
    const chosen = QUALITIES[Math.max(0, Math.min(QUALITIES.length - 1, better))] ?? quality;
    if (chosen === quality || !watching) return;
    quality = chosen;
    void restartScreencast(watching.sessionId);
  };

  cdp.on('Page.screencastFrame', (params, sessionId) => {
    const metadata = params.metadata as { deviceWidth: number; deviceHeight: number };
    const frame: Frame = {
      sessionId: sessionId ?? '',
      number: params.sessionId as number,
      data: params.data as string,
      width: metadata.deviceWidth,
      height: metadata.deviceHeight,
    };
    if (sessionId !== watching?.sessionId) return void ackToBrowser(frame.sessionId, frame.number);
    if (shown === null) return showFrame(frame);
    // The viewer is still drawing: only the newest frame waits, older ones are let go.
    if (next) ackToBrowser(next.sessionId, next.number);
    next = frame;
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
    tabs.clear();
    for (const info of targetInfos as { targetId: string; type: string; title: string; url: string }[])
      if (info.type === 'page')
        tabs.set(info.targetId, {
          id: info.targetId,
          title: shownText(info.title),
          url: shownText(info.url),
        });
    const active = session.activeTab();
    if (active !== null && active !== followed && tabs.has(active)) {
      followed = active;
      await watch(active);
    } else if (!watching || !tabs.has(watching.targetId)) {
      watching = null;
      const other = openingTab();
      if (other) await watch(other);
    }
    sendTabs();
  }

  /** The agent's or run's tab while it is open, else the first. */
  function openingTab(): string | undefined {
    const active = session.activeTab();
    return active !== null && tabs.has(active) ? active : tabs.keys().next().value;
  }
  cdp.on('Target.targetCreated', listTabs);
  cdp.on('Target.targetInfoChanged', listTabs);
  cdp.on('Target.targetDestroyed', listTabs);

  async function watch(targetId: string): Promise<void> {
    const previous = watching;
    if (previous?.targetId === targetId) return;
    if (mode === 'control') await cdp.send('Target.activateTarget', { targetId });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    if (ended) return;
    watching = { targetId, sessionId: sessionId as string };
    shown = null;
    next = null;
    sendTabs();
    if (previous) cdp.send('Target.detachFromTarget', { sessionId: previous.sessionId }).catch(ignore);
    await startScreencast(watching.sessionId);
  }

  const receive = (text: string) => {
    const message = parseViewerMessage(text);
    if (message === null) return link.close(1008, 'A live view message must be one of the viewer’s.');
    if (CONTROL_TYPES.has(message.type) && mode === 'view')
      return link.close(1008, 'This live view address is view-only: it sends no input and controls nothing.');
    const sessionId = watching?.sessionId;
    switch (message.type) {
      case 'ack': {
        if (!shown) return;
        fitQuality(performance.now() - shown.sentAt);
        ackToBrowser(shown.sessionId, shown.number);
        shown = null;
        const waiting = next;
        next = null;
        if (waiting && waiting.sessionId === sessionId) showFrame(waiting);
        return;
      }
      case 'size':
        size = { width: message.width, height: message.height };
        if (sessionId) void restartScreencast(sessionId);
        return;
      case 'watch':
        if (tabs.has(message.tab)) watch(message.tab).catch(ignore);
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
    ended = true;
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
